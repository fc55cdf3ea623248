#!/bin/bash
# Our kernel of another tree (KTREE, e.g. 6.12) with its own series: the
# guest tests that drive the series' kernel code (00, the rlimits
# selftests, KUnit, the tracepoints and the iterator where the tree has
# them, the ground truth and the denials) or, with TREE_TESTS=all (CI),
# every guest test the tree's series can run. The stable trees carry the
# fixes only: the tracepoints' test (30), the iterator's (40-42) and the
# stress suite, which reads the iterator (70-73), need the features; the
# tool's tests run its stock-kernel path there. TAP, each result named
# with the tree.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

smp=${TREE_GUEST_SMP:-4}
# the guest tests (file names) the tree's series leave something to test
tree_tests() {
	local t
	for t in "$@"; do
		case "$t" in
		30-*) tree_has_series tracepoints || continue ;;
		4[0-2]-* | 7*) tree_has_series bpf-iter || continue ;;
		esac
		echo "$t"
	done
}
cd "$UCT_ROOT/guest/tests" || exit 1
case "${TREE_TESTS:-series}" in
all) tests=$(tree_tests *.sh) ;;
series) tests=$(tree_tests 00-*.sh 10-*.sh 20-*.sh 30-*.sh 4[0-2]-*.sh 50-*.sh 51-*.sh) ;;
*) tests=$TREE_TESTS ;;
esac
tests=$(echo "$tests" | tr ' ' '\n' | sed '/^$/d; s|^\./||; /^\//!s|^|/uct/tests/|' | tr '\n' ' ')
# TREE_BUILD=1 (make test's all matrix): the tree's kernel and guest
# built first when they are not, the build's output on stderr
if [ "${TREE_BUILD:-0}" = 1 ] && ! make -s -C "$UCT_ROOT" guest KTREE="$KTREE" >&2; then
	echo "not ok 1 $KTREE: kernel and guest built (KTREE=$KTREE make guest failed: its output above)"
	exit 1
fi
if [ ! -f "$BZIMAGE" ]; then
	echo "not ok 1 $KTREE: kernel built ($BZIMAGE missing: run 'KTREE=$KTREE make guest')"
	exit 1
fi
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
rc=0
"$UCT_ROOT/guest/run" -q --smp "$smp" --timeout "${TREE_GUEST_TIMEOUT:-2700}" \
	--results "$tap" --console "$LOGDIR/guest-tests.console" -- /uct/run-tests $tests || rc=$?
sed -E 's/^(not ok|ok) ([0-9]+) /\1 \2 '"$KTREE"': /' "$tap"
[ "$rc" = 0 ] || echo "# guest exited $rc (console: $LOGDIR/guest-tests.console)"
exit "$rc"
