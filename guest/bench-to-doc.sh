#!/bin/bash
# guest/bench-to-doc.sh LOG DOC [STOCK-LOG]: replace the block between
# "<!-- bench:begin -->" and "<!-- bench:end -->" in DOC with the tables
# guest/bench.sh printed in LOG (the console of make bench's guest on our
# kernel), and the command, date, guest kernel and commit they come from;
# with STOCK-LOG (the same hot-path loops on a stock kernel), first a
# table of each mode on both kernels side by side. The numbers in
# docs/performance.md are generated, never typed. DOC is left alone when
# LOG has no table or DOC has no block.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

log=${1:?usage: guest/bench-to-doc.sh LOG DOC [STOCK-LOG]}
doc=${2:?usage: guest/bench-to-doc.sh LOG DOC [STOCK-LOG]}
stock=${3:-}
if ! grep -q '^<!-- bench:begin -->$' "$doc" || ! grep -q '^<!-- bench:end -->$' "$doc"; then
	die "$doc has no <!-- bench:begin --> / <!-- bench:end --> block"
fi

# The tables ("|" lines) and the note in parentheses under each; printk
# lines and bench.sh's progress ("# bench: ...", on stderr, which the
# console interleaves) are skipped, everything else ends a table. A blank line before a
# note, or GitHub's Markdown would read it as one more row.
tables=$(tr -d '\r' < "$log" | awk '
	/^\[ *[0-9]+\.[0-9]+\]/ || /^# bench: / { next }
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
# BENCH MODE SIG SIG-SPREAD FORK FORK-SPREAD ...: guest/bench.sh's summary
bench_lines() { tr -d '\r' < "$1" | grep '^BENCH '; }
side_by_side() {
	local sk
	sk=$(tr -d '\r' < "$stock" | sed -n 's/^kernel \([^ ,]*\).*/\1/p' | head -n 1)
	echo "| tool | sigqueue round trip, ours | stock $sk | fork, ours | stock $sk |"
	echo "|---|---|---|---|---|"
	awk 'FNR == 1 { file++ }
		file == 1 { if (!o0) { o0 = $3; of0 = $5 } o[$2] = sprintf("%+.1f%% (±%.1f%%)", ($3 / o0 - 1) * 100, $4 / 2)
			    of[$2] = sprintf("%+.1f%% (±%.1f%%)", ($5 / of0 - 1) * 100, $6 / 2); order[++n] = $2; seen[$2] = 1 }
		file == 2 { if (!s0) { s0 = $3; sf0 = $5 } s[$2] = sprintf("%+.1f%% (±%.1f%%)", ($3 / s0 - 1) * 100, $4 / 2)
			    sf[$2] = sprintf("%+.1f%% (±%.1f%%)", ($5 / sf0 - 1) * 100, $6 / 2)
			    if (!seen[$2]) { order[++n] = $2; seen[$2] = 1 } }
		END { for (i = 2; i <= n; i++) { m = order[i]
			printf "| %s | %s | %s | %s | %s |\n", m, m in o ? o[m] : "-", m in s ? s[m] : "-",
				m in of ? of[m] : "-", m in sf ? sf[m] : "-" } }' \
		<(bench_lines "$log") <(bench_lines "$stock")
	echo
	echo "(cost over untraced on each kernel, median of the interleaved rounds, ± half their spread;"
	echo " our kernel: the ucounts tracepoints, ev-fexit: its fexit path; stock: fexit only)"
	echo
}
{
	echo "\`make bench\` on $(date -u +%Y-%m-%d), guest kernel $kernel (our series),"
	[ -n "$stock" ] && echo "and Debian's stock $(tr -d '\r' < "$stock" | sed -n 's/^kernel \([^ ,]*\).*/\1/p' | head -n 1),"
	echo "at commit $commit:"
	echo
	[ -n "$stock" ] && [ -n "$(bench_lines "$stock")" ] && side_by_side
	echo "$tables"
	if [ -n "$stock" ]; then
		echo
		echo "The stock kernel's run:"
		echo
		tr -d '\r' < "$stock" | awk '
			/^\[ *[0-9]+\.[0-9]+\]/ || /^# bench: / { next }
			/^\|/ { print; row = 1; next }
			row && /^\(/ { print ""; note = 1 }
			note { print; if (/\)$/) note = 0; row = 0; next }
			{ row = 0 }'
	fi
} > "$block"
awk -v block="$block" '
	/^<!-- bench:end -->$/ { skip = 0 }
	!skip { print }
	/^<!-- bench:begin -->$/ { while ((getline l < block) > 0) print l; skip = 1 }' \
	"$doc" > "$block.doc"
cat "$block.doc" > "$doc"
stage bench "tables written to $doc"
