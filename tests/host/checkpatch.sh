#!/bin/bash
# Every patch of every tree's series (patches/*/series): checkpatch
# --strict clean by that tree's own checkpatch.pl, well-formed Fixes:
# tags, and signed off by the project identity. TAP, three results per
# patch. Each tree is extracted and patched here when it is not already
# (guest/prepare-tree.sh): no kernel build needs to have run.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

ident='ucounttop developers <dev@ucounttop.invalid>'
n=0
for KTREE in $KTREES; do
PATCHES=$UCT_ROOT/patches/$KTREE
KSRC=$CACHE_DIR/tree-$KTREE/linux
if ! KTREE=$KTREE "$UCT_ROOT/guest/prepare-tree.sh" >&2 || [ ! -x "$KSRC/scripts/checkpatch.pl" ]; then
	n=$((n + 1))
	echo "not ok $n the $KTREE tree is extracted and patched at $KSRC (guest/prepare-tree.sh)"
	continue
fi
while read -r p; do
	name=$KTREE/${p#"$PATCHES"/}
	n=$((n + 1))
	# UNKNOWN_COMMIT_ID: the tree is a tarball, without the upstream history
	# checkpatch looks Fixes: ids up in; their form is checked below
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl --strict --no-signoff --show-types \
		--ignore UNKNOWN_COMMIT_ID "$p" 2>&1)
	# a here-string, not a pipe: under pipefail, grep -q leaving early
	# would fail the writer with SIGPIPE and the test with it
	if grep -q '^total: 0 errors, 0 warnings, 0 checks' <<< "$out"; then
		echo "ok $n checkpatch --strict: $name"
	else
		echo "not ok $n checkpatch --strict: $name"
		echo "$out" | sed 's/^/# /'
	fi
	n=$((n + 1))
	bad=$(grep '^Fixes:' "$p" | grep -vE '^Fixes: [0-9a-f]{12} \(".+"\)$')
	if [ -z "$bad" ]; then
		echo "ok $n Fixes: tags are 12-digit ids with the quoted subject: $name"
	else
		echo "not ok $n Fixes: tags are 12-digit ids with the quoted subject: $name"
		echo "# $bad"
	fi
	n=$((n + 1))
	if grep -qxF "Signed-off-by: $ident" "$p" && grep -qxF "From: $ident" "$p"; then
		echo "ok $n author and Signed-off-by are '$ident': $name"
	else
		echo "not ok $n author and Signed-off-by are '$ident': $name"
	fi
done < <(series_patches)
done
[ "$n" = 0 ] && { n=1; echo "ok 1 checkpatch # SKIP no series lists a patch"; }
echo "1..$n"
