#!/bin/bash
# stock-kernel.sh [FLAVOUR]: the same ucounttop binary on one of the
# stock kernels Debian packages (6.1 by default, 6.12, 6.12-rt, 7.x,
# 7.x-rt; see guest/fetch-stock-kernel.sh): BTF, but none of our series.
# It must load, seed its tree from the task iterator, state what is
# degraded, and pass the ucounttop guest tests (STOCK_TESTS, default 00
# and the 5* tests).
# TAP, each result naming the kernel. The kernel is downloaded into the
# cache, never installed. STOCK_TREE: the tree whose guest build (its
# initramfs: the kselftests check runs around, the test module) boots
# with it, default KTREE's; the full matrix gives the stock kernel's own
# version, whose kselftests match it. STOCK_TIMEOUT: the whole boot's
# bound in seconds (2400).
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

flavour=${1:-6.1}
dir=$("$UCT_ROOT/guest/fetch-stock-kernel.sh" "$flavour" | tail -n 1) || exit 1
name=$(basename "$dir")
# Another tree's initramfs (6.1's and 6.12's in the full matrix): its
# kselftests and our tools, made up to date here, apart from the tree's
# own guest (TOUT), so that the tree's kernel may be built meanwhile; no
# kernel of that tree is needed, a stock kernel boots it. make test's own
# recipe made mainline's.
tree=${STOCK_TREE:-$KTREE}
if [ "$tree" != "$MAINLINE_TREE" ]; then
	export TOUT=$UCT_OUT/stock-tree-$tree
	if ! make -s -C "$UCT_ROOT" stock-initramfs KTREE="$tree" >&2; then
		echo "not ok 1 stock $flavour: the $tree tree's initramfs built (make stock-initramfs KTREE=$tree failed: its output above)"
		exit 1
	fi
fi
tests=${STOCK_TESTS:-$(cd "$UCT_ROOT/guest/tests" && ls 00-*.sh 5*.sh | sed 's|^|/uct/tests/|' | tr '\n' ' ')}
tap=$(mktemp)
rc=0
console=$LOGDIR/stock-$flavour.console
# a bound, not a budget: the full matrix's lists take 8 to 12 minutes
# alone, and up to twice that beside two other guests and a build
"$UCT_ROOT/guest/run" -q --smp "${STOCK_SMP:-1}" --timeout "${STOCK_TIMEOUT:-2400}" --kernel "$dir/vmlinuz" \
	--tree "$tree" --add "$dir/early-modules:/uct/early-modules" --results "$tap" \
	--console "$console" -- /uct/run-tests $tests || rc=$?
# The guest's own numbering, with the kernel named in each result.
sed -E 's/^(not ok|ok) ([0-9]+) /\1 \2 stock '"$name"': /' "$tap"
rm -f "$tap"
[ "$rc" = 0 ] || echo "# guest exited $rc (console: $console)"
exit "$rc"
