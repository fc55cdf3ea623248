#!/bin/bash
# guest/bench-to-doc.sh LOG DOC: replace the block between
# "<!-- bench:begin -->" and "<!-- bench:end -->" in DOC with the tables
# guest/bench.sh printed in LOG (the console of make bench's guest), and
# the command, date, guest kernel and commit they come from. The numbers
# in docs/performance.md are generated, never typed. DOC is left alone
# when LOG has no table or DOC has no block.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log=${1:?usage: guest/bench-to-doc.sh LOG DOC}
doc=${2:?usage: guest/bench-to-doc.sh LOG DOC}
if ! grep -q '^<!-- bench:begin -->$' "$doc" || ! grep -q '^<!-- bench:end -->$' "$doc"; then
	die "$doc has no <!-- bench:begin --> / <!-- bench:end --> block"
fi

# The tables ("|" lines) and the note in parentheses under each; printk
# lines are skipped, everything else ends a table. A blank line before a
# note, or GitHub's Markdown would read it as one more row.
tables=$(tr -d '\r' < "$log" | awk '
	/^\[ *[0-9]+\.[0-9]+\]/ { next }
	/^\|/ { if (!row && n) print ""; print; row = 1; n++; next }
	row && /^\(/ { print ""; note = 1 }
	note { print; if (/\)$/) note = 0; row = 0; next }
	{ row = 0 }')
grep -q '^| tool |' <<< "$tables" || die "no bench table in $log: $doc left as it was"

commit=$(git -C "$UCT_ROOT" rev-parse --short HEAD)
git -C "$UCT_ROOT" diff --quiet HEAD -- . ":!docs/performance.md" || commit="$commit with local changes"
kernel=$(cat "$KOUT/include/config/kernel.release" 2> /dev/null || echo unknown)
block=$(mktemp)
trap 'rm -f "$block" "$block.doc"' EXIT
{
	echo "\`make bench\` on $(date -u +%Y-%m-%d), guest kernel $kernel (our series),"
	echo "at commit $commit:"
	echo
	echo "$tables"
} > "$block"
awk -v block="$block" '
	/^<!-- bench:end -->$/ { skip = 0 }
	!skip { print }
	/^<!-- bench:begin -->$/ { while ((getline l < block) > 0) print l; skip = 1 }' \
	"$doc" > "$block.doc"
cat "$block.doc" > "$doc"
stage bench "tables written to $doc"
