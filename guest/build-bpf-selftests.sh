#!/bin/bash
# Build test_progs with only the BPF selftests the guest runs, from the
# patched tree's own files: its libbpf, test_progs.c and helpers, the
# tests' prog_tests/ and progs/ sources. All of test_progs takes too long
# to build for CI (hundreds of BPF objects, bpftool, resolve_btfids), so
# this does what tools/testing/selftests/bpf/Makefile does for one test:
# vmlinux.h from the built kernel, the BPF object and its skeleton, a
# tests.h that lists only the chosen tests, one static binary.
#
# BPF_SELFTESTS: the prog_tests/<name>.c files to build (default: the
# ucounts iterator's). Output: $TOUT/selftests/bpf/test_progs, the
# guest's /uct/selftests/bpf/test_progs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# BPF_KSRC, BPF_KOUT: another tree and build (make check-series)
KSRC=${BPF_KSRC:-$KSRC}
KOUT=${BPF_KOUT:-$KOUT}
TESTS=${BPF_SELFTESTS:-ucounts_iter}
PROGS=${BPF_SELFTEST_PROGS:-bpf_iter_ucounts}
SRC=$KSRC/tools/testing/selftests/bpf
OUT=$TOUT/selftests/bpf
B=$TOUT/bpf-selftests-build
LOG=$LOGDIR/bpf-selftests.log
# the stable trees carry the fixes only: no iterator, no test of it
if [ -z "${BPF_KSRC:-}${BPF_SELFTESTS:-}" ] && ! tree_has_series bpf-iter; then
	rm -f "$OUT/test_progs"
	stage selftests "bpf: none (patches/$KTREE has no bpf-iter series)"
	exit 0
fi
[ -n "${BPF_KSRC:-}" ] || [ -f "$KSRC/.uct-tree" ] || die "no patched tree at $KSRC (run 'make kernel' first)"
[ -f "$KOUT/vmlinux" ] || die "no $KOUT/vmlinux (run 'make kernel' first)"
for t in $TESTS; do
	[ -f "$SRC/prog_tests/$t.c" ] || die "no $SRC/prog_tests/$t.c in the patched tree"
done
mkdir -p "$OUT" "$B/libbpf" "$B/prog_tests"
: > "$LOG"

run() { "$@" >> "$LOG" 2>&1 || { tail -n 30 "$LOG" >&2; die "building the BPF selftests failed: $* (log: $LOG)"; }; }

# The tree's libbpf, static, with its headers installed as <bpf/...>
run make -s -C "$KSRC/tools/lib/bpf" OUTPUT="$B/libbpf/" CC="ccache gcc" \
	"$B/libbpf/libbpf.a"
run make -s -C "$KSRC/tools/lib/bpf" OUTPUT="$B/libbpf/" DESTDIR="$B/root" prefix= \
	install_headers
INC=(-I"$B" -I"$B/root/include" -I"$KSRC/tools/include" -I"$KSRC/tools/include/uapi"
	-I"$SRC" -I"$KSRC/tools/testing/selftests" -I"$KSRC/tools/lib")
# test_progs.c and the helpers it links with (the Makefile's
# TRUNNER_EXTRA_SOURCES and TRUNNER_LIB_SOURCES), which grow with releases
HELPERS=(test_progs.c cgroup_helpers.c trace_helpers.c network_helpers.c testing_helpers.c
	btf_helpers.c cap_helpers.c test_loader.c)
[ "$KTREE" = 6.1 ] || HELPERS+=(unpriv_helpers.c netlink_helpers.c jit_disasm_helpers.c xsk.c
	disasm.c disasm_helpers.c json_writer.c)
case "$KTREE" in
6.*) ;;
*) HELPERS+=(sysctl_helpers.c io_helpers.c bpftool_helpers.c usdt_1.c usdt_2.c ../../../lib/find_bit.c) ;;
esac
# 7.x: test_progs embeds a generated signing certificate, as its Makefile
# makes it (verify_sig_setup.sh genkey)
if grep -q 'verification_cert\.h' "$SRC/test_progs.c"; then
	if [ ! -f "$B/verification_cert.h" ]; then
		run "$SRC/verify_sig_setup.sh" genkey "$B"
		{
			echo "unsigned char test_progs_verification_cert[] = {"
			od -v -t xC -w12 "$B/signing_key.der" | sed 's/ \(\S\+\)/ 0x\1,/g;s/^\S\+/ /;$d'
			echo "};"
			echo "unsigned int test_progs_verification_cert_len = $(wc -c < "$B/signing_key.der");"
		} > "$B/verification_cert.h"
	fi
fi

# vmlinux.h of the guest kernel; BPF objects and skeletons
bpftool btf dump file "$KOUT/vmlinux" format c > "$B/vmlinux.h.tmp"
mv "$B/vmlinux.h.tmp" "$B/vmlinux.h"
for p in $PROGS; do
	run clang -g -O2 -target bpf -D__TARGET_ARCH_x86 -mcpu=v3 "${INC[@]}" \
		-c "$SRC/progs/$p.c" -o "$B/$p.bpf.o"
	bpftool gen skeleton "$B/$p.bpf.o" name "$p" > "$B/$p.skel.h.tmp" 2>> "$LOG" ||
		die "bpftool gen skeleton $p failed (log: $LOG)"
	mv "$B/$p.skel.h.tmp" "$B/$p.skel.h"
done

# tests.h as the Makefile makes it, from the chosen tests only
for t in $TESTS; do
	sed -n -E 's/^void (serial_)?test_([a-zA-Z0-9_]+)\((void)?\).*/DEFINE_TEST(\2)/p' \
		"$SRC/prog_tests/$t.c"
done | sort > "$B/prog_tests/tests.h"

run ccache gcc -static -g -O2 -Wall -D_GNU_SOURCE "${INC[@]}" -o "$OUT/test_progs.tmp" \
	"${HELPERS[@]/#/$SRC/}" \
	$(for t in $TESTS; do echo "$SRC/prog_tests/$t.c"; done) \
	"$B/libbpf/libbpf.a" -lelf -lz -lpthread
mv "$OUT/test_progs.tmp" "$OUT/test_progs"
stage selftests "bpf: test_progs with $(tr '\n' ' ' < "$B/prog_tests/tests.h")"
