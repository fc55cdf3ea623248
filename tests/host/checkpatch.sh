#!/bin/bash
# Every patch of every tree's series (patches/*/series): checkpatch
# --strict clean by that tree's own checkpatch.pl, well-formed Fixes:
# tags, and signed off by the project identity; a mainline patch also goes
# to everyone get_maintainer.pl names, and each mainline series applies to
# the pristine tree on its own; a stable tree's patch goes to stable with
# a backport note. TAP, three or four results a patch and
# one a mainline series. Each tree is extracted and patched here when it
# is not already (guest/prepare-tree.sh): no kernel build needs to have
# run.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

ident='ucounttop developers <dev@ucounttop.invalid>'
ident_addr=dev@ucounttop.invalid
# the addresses get_maintainer.pl names for PATCH in KSRC, and those a
# patch's To: and Cc: headers name, one a line, sorted
recipients_named() {
	"$UCT_ROOT/guest/series-recipients.sh" "$1" "$2" | sed 's/^[A-Za-z]*: //' | addresses |
		grep -vxF "$ident_addr"
}
recipients_of() {
	python3 -c 'import email, sys
m = email.message_from_file(open(sys.argv[1]))
print(", ".join(m.get_all("To", []) + m.get_all("Cc", [])))' "$1" | addresses
}
# series_applies_alone PRISTINE DIR: DIR's patches (all but the cover
# letter), in order, onto a copy of the files they touch in PRISTINE
series_applies_alone() {
	local t rc=0 bad
	t=$(mktemp -d)
	if ! bad=$(patch_copy "$1" "$t" "$2"/*-000[1-9]*.patch); then
		echo "$(basename "$bad") does not apply:"
		cat "$t/.patch.log"
		rc=1
	fi
	rm -rf "$t"
	return "$rc"
}
addresses() {
	grep -oE '[^<>" ,]+@[^<>" ,]+' | sort -u
}
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
	# the mainline series go to whom the tree's get_maintainer.pl names
	if [ "$KTREE" = "$MAINLINE_TREE" ]; then
		n=$((n + 1))
		missing=$(comm -23 <(recipients_named "$KSRC" "$p") <(recipients_of "$p"))
		if [ -z "$missing" ]; then
			echo "ok $n To: and Cc: name everyone get_maintainer.pl names: $name"
		else
			echo "not ok $n To: and Cc: name everyone get_maintainer.pl names: $name"
			echo "$missing" | sed 's/^/# missing: /'
		fi
	else
		# a stable tree's patch is a backport: sent to stable, with
		# the bracketed note stable asks for above the sign-off,
		# saying where the change comes from
		n=$((n + 1))
		if grep -qx "To: stable@vger.kernel.org" "$p" &&
		   sed -n '/^---$/q; p' "$p" | grep -q '^\[ .*\(upstream\|backport\)'; then
			echo "ok $n a stable backport: To: stable, with its backport note: $name"
		else
			echo "not ok $n a stable backport: To: stable, with its backport note: $name"
		fi
	fi
	n=$((n + 1))
	if grep -qxF "Signed-off-by: $ident" "$p" && grep -qxF "From: $ident" "$p"; then
		echo "ok $n author and Signed-off-by are '$ident': $name"
	else
		echo "not ok $n author and Signed-off-by are '$ident': $name"
	fi
done < <(series_patches)
# each mainline series applies to the pristine tree on its own, as sent
[ "$KTREE" = "$MAINLINE_TREE" ] && for dir in "$PATCHES"/*/; do
	n=$((n + 1))
	name=$KTREE/$(basename "$dir")
	if out=$(series_applies_alone "$CACHE_DIR/tree-$KTREE/pristine" "$dir" 2>&1); then
		echo "ok $n $name applies to the pristine tree on its own"
	else
		echo "not ok $n $name applies to the pristine tree on its own"
		echo "$out" | sed 's/^/# /'
	fi
done
done
[ "$n" = 0 ] && { n=1; echo "ok 1 checkpatch # SKIP no series lists a patch"; }
echo "1..$n"
