#!/bin/bash
# The default `make test` must pass on a fresh machine: every host suite
# that boots no guest finds what it needs in a cache holding only what
# `make test`'s own recipe made first (guest/deps.sh's promtool, and
# `make guest` on the mainline tree: its apt state and source package,
# the tree and its build, ccache, the userspace outputs), or makes the rest itself. A suite that reads
# something only another target makes (a tree the default matrix never
# builds, say) fails here even when the developer's own cache has it.
# A fresh CACHE_DIR with links to exactly those; each suite runs in it.
# TAP, one result per suite. Run in the full and all matrices: it extracts the
# other trees again, which a developer's run has no room for.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$UCT_ROOT/tests/host/lib/tap.sh"

# what `make test` makes before any suite runs (the Makefile's test
# recipe and its prerequisites, in the default matrix)
made_by_make_test=(promtool ccache apt src "tree-$MAINLINE_TREE")
fresh=$tmp/cache
mkdir -p "$fresh"
for d in "${made_by_make_test[@]}"; do
	if [ -e "$CACHE_DIR/$d" ]; then
		ln -s "$CACHE_DIR/$d" "$fresh/$d"
	else
		nok "make test made $CACHE_DIR/$d before its suites"
	fi
done

# the suites that boot no guest and download nothing (core-relocs and the
# stock kernels' suites fetch what they read themselves)
for s in make-help contrib checkpatch splat-scan-test manpage openmetrics-host; do
	log=$tmp/$s.log
	# UCT_OUT: the userspace outputs are `make tools`', built for this
	# checkout whatever the cache
	if env CACHE_DIR="$fresh" UCT_OUT="$UCT_OUT" TOUT= UCT_T0= \
		"$UCT_ROOT/tests/host/$s.sh" > "$log" 2>&1; then
		ok "$s passes from a fresh cache ($(grep -c '^ok ' "$log") results)"
	else
		nok "$s passes from a fresh cache"
		grep -E '^not ok|^# error|^error' "$log" | head -n 20 | diag
	fi
done
ls "$fresh" | grep -vxF -f <(printf '%s\n' "${made_by_make_test[@]}" logs) |
	sed 's/^/made by the suites themselves: /' | diag
finish
