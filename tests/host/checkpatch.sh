#!/bin/bash
# Every patch in patches/series: checkpatch --strict clean and signed off by
# the project identity. TAP, two results per patch.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

ident='ucounttop developers <dev@ucounttop.invalid>'
[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no kernel tree at $KSRC (run 'make kernel')"
n=0
while read -r p; do
	name=$(basename "$p")
	n=$((n + 1))
	out=$(cd "$KSRC" && perl scripts/checkpatch.pl --strict --no-signoff --show-types "$p" 2>&1)
	if echo "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok $n checkpatch --strict: $name"
	else
		echo "not ok $n checkpatch --strict: $name"
		echo "$out" | sed 's/^/# /'
	fi
	n=$((n + 1))
	if grep -qxF "Signed-off-by: $ident" "$p" && grep -qxF "From: $ident" "$p"; then
		echo "ok $n author and Signed-off-by are '$ident': $name"
	else
		echo "not ok $n author and Signed-off-by are '$ident': $name"
	fi
done < <(series_patches)
[ "$n" = 0 ] && { n=1; echo "ok 1 checkpatch # SKIP patches/series lists no patches"; }
echo "1..$n"
