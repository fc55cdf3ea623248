#!/bin/bash
# Every CO-RE relocation of our BPF objects against the BTF of each kernel
# we support, on the host, loading nothing (tests/host/core-relocs/
# core_relocs.c says how it decides). The kernels: Debian's stock 6.1,
# 6.12, 6.12-rt and newest 7.x and 7.x-rt (fetched into the cache, never
# installed), the host's own when its BTF is readable, and our trees'
# vmlinux when built.
# First a self-test: objects compiled here from inline sources, unguarded
# reads of members that some of those kernels lack must fail and their
# guarded twins pass. TAP.
#
# FETCH_STOCK: the script that fetches a stock kernel by flavour and
# prints its directory (default guest/fetch-stock-kernel.sh).
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

FETCH_STOCK=${FETCH_STOCK:-$UCT_ROOT/guest/fetch-stock-kernel.sh}
src=$UCT_ROOT/tests/host/core-relocs/core_relocs.c
tool=$UCT_OUT/host-tools/core_relocs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 fails=0

ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
# show FILE: a file's lines as TAP comments
show() { sed 's/^/# /' "$1"; }

# relay FILE: core_relocs' results, numbered on from ours, its comments
# kept under the result they belong to
relay() {
	local line
	while IFS= read -r line; do
		case "$line" in
		'ok '[0-9]*) n=$((n + 1)); echo "ok $n ${line#ok * }" ;;
		'not ok '[0-9]*)
			n=$((n + 1)) fails=$((fails + 1))
			echo "not ok $n ${line#not ok * }" ;;
		'1..'*) ;;
		*) echo "$line" ;;
		esac
	done < "$1"
}

# ---- the tool ----------------------------------------------------------------
mkdir -p "$UCT_OUT/host-tools"
if [ ! -x "$tool" ] || [ "$src" -nt "$tool" ]; then
	if cc -O2 -g -Wall -Wextra -Wno-unused-parameter -std=gnu11 -o "$tool.tmp" "$src" \
		-lbpf -lelf -lz > "$tmp/cc.log" 2>&1 && [ ! -s "$tmp/cc.log" ]; then
		mv "$tool.tmp" "$tool"
	else
		rm -f "$tool.tmp"
		nok "core_relocs builds without a warning"
		show "$tmp/cc.log"
		echo "1..$n"
		exit 1
	fi
fi
ok "core_relocs builds without a warning"

# ---- the kernels -------------------------------------------------------------
# NAME=BTF_PATH, as core_relocs takes them
targets=()
# flavour -> the package directory name it must give (a fetch script
# that ignores the flavour hands back the default kernel under any name)
declare -A stock_re=(
	[6.1]='^linux-image-6\.1\.[0-9]+-'
	[6.12]='^linux-image-6\.12\.[0-9]+\+deb12-amd64-'
	[6.12-rt]='^linux-image-6\.12\.[0-9]+\+deb12-rt-amd64-'
	[7.x]='^linux-binary-unsigned-7\.[0-9]+\.[0-9]+\+deb[0-9]+-amd64-'
	[7.x-rt]='^linux-binary-unsigned-7\.[0-9]+\.[0-9]+\+deb[0-9]+-rt-amd64-'
)
for fl in 6.1 6.12 6.12-rt 7.x 7.x-rt; do
	if ! dir=$("$FETCH_STOCK" "$fl" 2> "$tmp/fetch.err" | tail -n 1) || [ -z "$dir" ]; then
		nok "stock $fl kernel fetched ($FETCH_STOCK $fl failed)"
		show "$tmp/fetch.err"
	elif ! [[ $(basename "$dir") =~ ${stock_re[$fl]} ]]; then
		nok "stock $fl kernel fetched ($FETCH_STOCK $fl gave $(basename "$dir"): does it know flavour $fl?)"
	elif [ ! -s "$dir/btf" ]; then
		nok "stock $fl kernel fetched ($dir has no btf)"
	else
		targets+=("$fl=$dir/btf")
	fi
done
if [ -r /sys/kernel/btf/vmlinux ]; then
	targets+=("host-$(uname -r)=/sys/kernel/btf/vmlinux")
else
	echo "# the host's BTF (/sys/kernel/btf/vmlinux) is not readable: its kernel not checked"
fi
for t in $KTREES; do
	f=$CACHE_DIR/tree-$t/kbuild/vmlinux
	if [ -f "$f" ]; then
		targets+=("ours-$t=$f")
	else
		echo "# $f not built: our $t kernel not checked"
	fi
done
echo "# kernels: ${targets[*]%%=*}"
# target NAME: its NAME=BTF_PATH, if collected
target() {
	local t
	for t in "${targets[@]}"; do
		[ "${t%%=*}" = "$1" ] && echo "$t" && return 0
	done
	return 1
}

# ---- our objects -------------------------------------------------------------
# Built by cli/Makefile against our mainline tree's BTF. make rebuilds what a
# changed source needs; without that vmlinux, objects already built do.
objs=()
for c in "$UCT_ROOT"/bpf/*.bpf.c; do
	objs+=("$UCT_OUT/bpf/$(basename "$c" .c).o")
done
if [ -f "$TOOL_VMLINUX" ]; then
	if ! make -s -C "$UCT_ROOT/cli" bpf OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX" > "$tmp/make.log" 2>&1; then
		nok "the BPF objects build (make -C cli bpf)"
		show "$tmp/make.log"
		echo "1..$n"
		exit 1
	fi
fi
for o in "${objs[@]}"; do
	if [ ! -f "$o" ]; then
		nok "$(basename "$o") exists ($TOOL_VMLINUX, which it is built against, does not)"
		echo "1..$n"
		exit 1
	fi
done

# ---- self-test ---------------------------------------------------------------
# Reads of members 6.1 has and later kernels do not: signal_struct's
# posix_timers is an hlist_head (first, no next) from 6.12 on; ucounts'
# count an rcuref_t (refcnt, no counter) from 6.18 on. Unguarded, then
# guarded by a check of the very member, then by a check of the member
# that holds it, which is true where posix_timers exists at all. The
# 6.1 layouts are local flavours, so that the objects compile against
# whichever kernel's vmlinux.h ours are built with.
cat > "$tmp/selftest.h" <<'EOF'
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

char LICENSE[] SEC("license") = "GPL";

struct signal_struct___v61 {
	struct list_head posix_timers;
} __attribute__((preserve_access_index));

struct ucounts___v61 {
	atomic_t count;
} __attribute__((preserve_access_index));

SEC("iter/task")
int timers(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct signal_struct___v61 *sig;

	if (!task)
		return 0;
	sig = (void *)BPF_CORE_READ(task, signal);
	if (GUARD(sig->posix_timers.next, sig->posix_timers))
		return BPF_CORE_READ(sig, posix_timers.next) != 0;
	return 0;
}

SEC("iter/task")
int counter(struct bpf_iter__task *ctx)
{
	struct task_struct *task = ctx->task;
	struct ucounts___v61 *uc;

	if (!task)
		return 0;
	uc = (void *)BPF_CORE_READ(task, real_cred, ucounts);
	if (GUARD(uc->count.counter, uc->count))
		return BPF_CORE_READ(uc, count.counter);
	return 0;
}
EOF
declare -A guard=(
	[unguarded]='1'
	[guarded]='bpf_core_field_exists(member)'
	[outer-guarded]='bpf_core_field_exists(outer)'
)
st_ok=1
for v in unguarded guarded outer-guarded; do
	{ echo "#define GUARD(member, outer) ${guard[$v]}"; cat "$tmp/selftest.h"; } > "$tmp/$v.bpf.c"
	# cli/Makefile's flags for our objects
	if ! clang -g -O2 -Wall -target bpf -D__TARGET_ARCH_x86 -fms-extensions -Wno-microsoft-anon-tag -I"$UCT_OUT/bpf" \
		-c "$tmp/$v.bpf.c" -o "$tmp/$v.bpf.o" > "$tmp/clang.log" 2>&1; then
		nok "self-test: the $v object compiles"
		show "$tmp/clang.log"
		st_ok=0
	fi
done

# expect_tool VARIANT TARGET RESULT [ERE...]: core_relocs on the variant's
# object and that kernel reports RESULT (ok / not ok), each ERE matching
# one of its comment lines
expect_tool() {
	local v=$1 name=$2 want=$3 t out re miss=
	shift 3
	if ! t=$(target "$name"); then
		ok "self-test: $v on $name: $want # SKIP kernel $name not collected"
		return
	fi
	out=$("$tool" "$tmp/$v.bpf.o" -- "$t" 2>&1)
	for re; do
		grep -qE "$re" <<< "$out" || miss+=" '$re'"
	done
	if grep -qE "^$want [0-9]+ - " <<< "$out" && [ -z "$miss" ]; then
		ok "self-test: $v on $name: $want"
	else
		nok "self-test: $v on $name: $want${miss:+, naming$miss}"
		sed 's/^/#   /' <<< "$out"
	fi
}

if [ "$st_ok" = 1 ]; then
	host=host-$(uname -r)
	# the host's count: does this kernel have rcuref_t ucounts?
	host_rcuref=0
	if [ -r /sys/kernel/btf/vmlinux ] &&
	   bpftool btf dump file /sys/kernel/btf/vmlinux format c 2> /dev/null |
	   awk '/^struct ucounts \{/,/^\};/' | grep -q 'rcuref_t count;'; then
		host_rcuref=1
	fi
	timers_re='iter/task/timers: insn [0-9]+: FIELD_BYTE_OFFSET signal_struct(___v61)?\.posix_timers\.next \(0:[0-9]+:0\) unresolved, not guarded'
	counter_re='iter/task/counter: insn [0-9]+: FIELD_BYTE_OFFSET ucounts(___v61)?\.count\.counter \(0:[0-9]+:0\) unresolved, not guarded'

	expect_tool unguarded 6.1 ok
	expect_tool unguarded 6.12 "not ok" "$timers_re"
	expect_tool unguarded 6.12-rt "not ok" "$timers_re"
	expect_tool unguarded 7.x "not ok" "$timers_re" "$counter_re"
	expect_tool unguarded 7.x-rt "not ok" "$timers_re" "$counter_re"
	if [ "$host_rcuref" = 1 ]; then
		expect_tool unguarded "$host" "not ok" "$timers_re" "$counter_re"
	else
		echo "# the host's struct ucounts has no rcuref_t count: counter resolves there"
	fi
	for name in 6.1 6.12 6.12-rt 7.x 7.x-rt "$host" $(printf 'ours-%s ' $KTREES); do
		expect_tool guarded "$name" ok
	done
	# a check of posix_timers itself is true on 6.12: no guard there
	expect_tool outer-guarded 6.12 "not ok" \
		'iter/task/timers: .*posix_timers\.next .*unresolved, not guarded \(FIELD_EXISTS signal_struct(___v61)?\.posix_timers at insn [0-9]+ is true here\)'
fi

# ---- our objects on every kernel ---------------------------------------------
if [ "${#targets[@]}" = 0 ]; then
	nok "no kernel to check against"
else
	rc=0
	"$tool" "${objs[@]}" -- "${targets[@]}" > "$tmp/tap" 2> "$tmp/err" || rc=$?
	relay "$tmp/tap"
	case $rc in
	0) ;;
	1) grep -q '^not ok' "$tmp/tap" || { nok "core_relocs exited 1 without a failure"; show "$tmp/err"; } ;;
	*) nok "core_relocs ran (exit $rc)"; show "$tmp/err" ;;
	esac
fi
echo "1..$n"
[ "$fails" = 0 ]
