#!/bin/bash
# The same ucounttop binary on Debian's stock linux-image-6.1.0-*-amd64
# (BTF, but none of our series): it must load, seed its tree from the task
# iterator, state what is degraded, and pass the ucounttop guest tests.
# TAP. The kernel is downloaded into the cache, never installed.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

dir=$("$UCT_ROOT/guest/fetch-stock-kernel.sh" | tail -n 1) || exit 1
tests=${STOCK_TESTS:-$(cd "$UCT_ROOT/guest/tests" && ls 00-*.sh 5*.sh | sed 's|^|/uct/tests/|' | tr '\n' ' ')}
tap=$(mktemp)
rc=0
"$UCT_ROOT/guest/run" -q --timeout 900 --kernel "$dir/vmlinuz" \
	--add "$dir/early-modules:/uct/early-modules" --results "$tap" \
	--console "$LOGDIR/stock-kernel.console" -- /uct/run-tests $tests || rc=$?
# The guest's own numbering, with the kernel named in each result.
sed -E 's/^(not ok|ok) ([0-9]+) /\1 \2 stock '"$(basename "$dir")"': /' "$tap"
rm -f "$tap"
[ "$rc" = 0 ] || echo "# guest exited $rc (console: $LOGDIR/stock-kernel.console)"
exit "$rc"
