#!/bin/bash
# The stable trees' backports in the full matrix (CI), which has no time
# to build and boot their kernels from a cold cache (the all matrix does:
# tests/host/tree-guest.sh). For each tree (STABLE_TREES, default 6.1
# 6.12): the series applies (guest/prepare-tree.sh), and every kernel
# object it touches compiles with -Werror, configured as the tree's guest
# kernel is (allnoconfig + guest/kernel.config + guest/kernel-TREE.config),
# in a build directory of its own (tree-TREE/objcheck). The series'
# kselftest is built by the stock kernel's suite (make stock-initramfs).
# TAP, one result per tree.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

# check_tree: the tree KTREE names, in a subshell that read lib.sh for it
check_tree() {
	local o=$KDIR/objcheck fragment objs log=$LOGDIR/stable-build.log
	"$UCT_ROOT/guest/prepare-tree.sh" > "$log" 2>&1 || { echo "the series does not apply (log: $log)"; return 1; }
	mkdir -p "$o"
	fragment=$o/.uct-fragment
	guest_fragments | xargs cat > "$fragment"
	make -s -C "$KSRC" O="$o" KCONFIG_ALLCONFIG="$fragment" allnoconfig >> "$log" 2>&1 ||
		{ echo "configuration failed (log: $log)"; return 1; }
	# the C files the series touches, as the objects kbuild makes of them
	# (paths without spaces: split on purpose)
	# shellcheck disable=SC2046
	mapfile -t objs < <(kbuild_objs "$KSRC" $(series_patches | xargs sed -n 's|^+++ b/||p' | sort -u |
		grep -E '^(kernel|fs|ipc|mm|lib)/.*\.c$' | sed 's/\.c$/.o/'))
	[ ${#objs[@]} -gt 0 ] || { echo "the series touches no kernel object"; return 1; }
	# one kernel build at a time on this machine (guest/build-kernel.sh)
	exec 9> "$CACHE_DIR/kernel.lock"
	flock 9
	CCACHE_DIR=$CACHE_DIR/ccache CCACHE_BASEDIR=$CACHE_DIR \
		make -C "$KSRC" O="$o" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" KCFLAGS=-Werror \
		"${objs[@]}" >> "$log" 2>&1 ||
		{ echo "${objs[*]} do not compile (log: $log)"; grep -E '(error|warning):' "$log" | head -n 10 | sed 's/^/# /'; return 1; }
	echo "${objs[*]}"
}

n=0 rc=0
for tree in ${STABLE_TREES:-6.1 6.12}; do
	n=$((n + 1))
	if out=$(export KTREE=$tree && . "$UCT_ROOT/guest/lib.sh" && check_tree); then
		echo "ok $n $tree: the series applies and the objects it touches compile with -Werror: $out"
	else
		echo "not ok $n $tree: $(echo "$out" | head -n 1)"
		echo "$out" | tail -n +2
		rc=1
	fi
done
echo "1..$n"
exit "$rc"
