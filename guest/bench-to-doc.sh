#!/bin/bash
# guest/bench-to-doc.sh [--maps LOG]... LOG DOC [STOCK-LOG...]: replace the block between
# "<!-- bench:begin -->" and "<!-- bench:end -->" in DOC with the tables
# guest/bench.sh printed in LOG (the console of make bench's guest on our
# kernel), and the command, date, guest kernel and commit they come from;
# with STOCK-LOGs (the same hot-path loops on stock kernels), first a
# table of each mode on every kernel side by side; with --maps LOGs (the
# consoles of guest/bench-maps.sh, one per possible-CPU count), a table of
# the kernel memory each mode's maps hold. The numbers in
# docs/performance.md are generated, never typed. DOC is left alone when
# LOG has no table or DOC has no block.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

maps=()
while [ "${1:-}" = --maps ]; do
	maps+=("${2:?--maps needs a LOG}")
	shift 2
done
log=${1:?usage: guest/bench-to-doc.sh [--maps LOG]... LOG DOC [STOCK-LOG...]}
doc=${2:?usage: guest/bench-to-doc.sh [--maps LOG]... LOG DOC [STOCK-LOG...]}
shift 2
stocks=("$@")
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
kernel_of() { tr -d '\r' < "$1" | sed -n 's/^kernel \([^ ,]*\).*/\1/p' | head -n 1; }
# the tables and notes of a stock kernel's console
stock_tables() {
	tr -d '\r' < "$1" | awk '
		/^\[ *[0-9]+\.[0-9]+\]/ || /^# bench: / { next }
		/^\|/ { print; row = 1; next }
		row && /^\(/ { print ""; note = 1 }
		note { print; if (/\)$/) note = 0; row = 0; next }
		{ row = 0 }'
}
# Every mode's cost over untraced on each kernel, both loops, from the
# BENCH lines of each log (ours first) numbered by kernel.
side_by_side() {
	local f k=1 hdr="| tool | sigqueue round trip, ours" fhdr=" | fork, ours" sep="|---|---|---"
	local all
	all=$(mktemp)
	bench_lines "$log" | sed 's/^/1 /' > "$all"
	for f in "${stocks[@]}"; do
		k=$((k + 1))
		bench_lines "$f" | sed "s/^/$k /" >> "$all"
		hdr="$hdr | stock $(kernel_of "$f")"
		fhdr="$fhdr | stock $(kernel_of "$f")"
		sep="$sep|---|---"
	done
	echo "$hdr$fhdr |"
	echo "$sep|"
	awk -v nk="$k" '
		$3 == "untraced" { s0[$1] = $4; f0[$1] = $6; next }
		{ if (!seen[$3]++) order[++n] = $3
		  sig[$1, $3] = sprintf("%+.1f%% (±%.1f%%)", ($4 / s0[$1] - 1) * 100, $5 / 2)
		  frk[$1, $3] = sprintf("%+.1f%% (±%.1f%%)", ($6 / f0[$1] - 1) * 100, $7 / 2) }
		END { for (i = 1; i <= n; i++) { m = order[i]; line = "| " m
			for (j = 1; j <= nk; j++) line = line " | " ((j, m) in sig ? sig[j, m] : "-")
			for (j = 1; j <= nk; j++) line = line " | " ((j, m) in frk ? frk[j, m] : "-")
			print line " |" } }' "$all"
	rm -f "$all"
	echo
	echo "(cost over untraced on each kernel, median of the interleaved rounds, ± half their spread;"
	echo " our kernel: the ucounts tracepoints, ev-fexit: the stock kernels' fentry/fexit programs on it)"
	echo
}
# The maps' memory per mode and possible-CPU count, from the MAPS lines
# "MAPS POSSIBLE MODE BYTES NMAPS" of the --maps consoles.
maps_table() {
	local k
	k=$(tr -d '\r' < "${maps[0]}" | sed -n 's/^maps held with [0-9]* possible CPUs, kernel //p' | head -n 1)
	echo "| possible CPUs | live | --events | trace | check |"
	echo "|---|---|---|---|---|"
	cat "${maps[@]}" | tr -d '\r' | awk '$1 == "MAPS" {
		if (!seen[$2]++) order[++n] = $2
		v[$2, $3] = sprintf("%.1f MiB (%d maps)", $4 / 1048576, $5) }
		END { for (i = 1; i <= n; i++) { p = order[i]
			print "| " p " | " v[p, "live"] " | " v[p, "events"] " | " v[p, "trace"] " | " v[p, "check"] " |" } }'
	echo
	echo "(kernel memory of the maps each mode holds while it runs: memlock of the maps its descriptors"
	echo " name, as bpftool map show prints it; Debian's stock $k booted with possible_cpus=N)"
	echo
}
{
	echo "\`make bench\` on $(date -u +%Y-%m-%d), guest kernel $kernel (our series),"
	for f in "${stocks[@]}"; do
		echo "and Debian's stock $(kernel_of "$f"),"
	done
	echo "at commit $commit:"
	echo
	[ ${#stocks[@]} -gt 0 ] && side_by_side
	[ ${#maps[@]} -gt 0 ] && maps_table
	echo "$tables"
	for f in "${stocks[@]}"; do
		echo
		echo "The stock $(kernel_of "$f") run:"
		echo
		stock_tables "$f"
	done
} > "$block"
awk -v block="$block" '
	/^<!-- bench:end -->$/ { skip = 0 }
	!skip { print }
	/^<!-- bench:begin -->$/ { while ((getline l < block) > 0) print l; skip = 1 }' \
	"$doc" > "$block.doc"
cat "$block.doc" > "$doc"
stage bench "tables written to $doc"
