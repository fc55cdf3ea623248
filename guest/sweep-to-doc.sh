#!/bin/bash
# guest/sweep-to-doc.sh DIR DOC: replace the block between
# "<!-- NAME:begin -->" and "<!-- NAME:end -->" in DOC, NAME being DIR's
# own name (sweep, sweep-stock-7.x...), with the table of the kselftest
# sweep whose results tests/host/kselftest-sweep.sh left in DIR
# (COLL.alone, COLL.check: "RESULT TEST" lines; times; kernel; planned;
# wall: guests and seconds; not-built.txt), with the command, kernel and
# commit they come from. A collection row: its tests, kselftest's results
# alone and under check, check's findings, and each run's elapsed time in
# the guest.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=${1:?usage: guest/sweep-to-doc.sh DIR DOC}
doc=${2:?usage: guest/sweep-to-doc.sh DIR DOC}
name=$(basename "$dir")
grep -q "^<!-- $name:begin -->\$" "$doc" && grep -q "^<!-- $name:end -->\$" "$doc" ||
	die "$doc has no <!-- $name:begin --> / <!-- $name:end --> block"
[ -s "$dir/times" ] || die "no sweep results in $dir (run make sweep)"

count() { awk -v r="$2" '$1 == r { n++ } END { print n + 0 }' "$1"; }
# the commit the sweep ran (its guests' ucounttop), and the one judging
# it now when that differs (the lists changed since, SWEEP_REJUDGE)
now=$(git -C "$UCT_ROOT" rev-parse --short HEAD)
git -C "$UCT_ROOT" diff --quiet HEAD -- . ":!docs/testing.md" || now="$now with local changes"
commit=$now
if [ -s "$dir/commit" ]; then
	commit=$(cat "$dir/commit")
	[ "$commit" = "$now" ] || commit="$commit (judged again at $now)"
fi
kernel=unknown cpus=?
[ -s "$dir/kernel" ] && read -r kernel cpus < "$dir/kernel"
cmd="make sweep"
[ "$name" = sweep ] || cmd="SWEEP_ON=${name#sweep-} make sweep"
block=$(mktemp)
trap 'rm -f "$block" "$block.doc"' EXIT
{
	echo "From \`$cmd\` on $(date -u +%Y-%m-%d), kernel $kernel, commit $commit;"
	echo "pass/fail/skip/timeout as kselftest's runner reports them, alone and under check;"
	echo "findings: tests check reported an imbalance for (explained in guest/sweep-explained.txt or failing the sweep);"
	echo "seconds of the guest's uptime each run took ($cpus vCPUs under TCG)."
	echo
	echo "| collection | tests | alone p/f/s/t | under check p/f/s/t | findings | alone s | under check s |"
	echo "|---|---|---|---|---|---|---|"
	tot_t=0 tot_f=0
	while read -r c alone_s check_s _; do
		f=$(echo "$c" | tr / _)
		a=$dir/$f.alone k=$dir/$f.check
		tests=$(wc -l < "$a")
		fi=$(count "$k" finding)
		tot_t=$((tot_t + tests)) tot_f=$((tot_f + fi))
		printf '| %s | %d | %d/%d/%d/%d | %d/%d/%d/%d | %d | %s | %s |\n' "$c" "$tests" \
			"$(count "$a" pass)" "$(count "$a" fail)" "$(count "$a" skip)" "$(count "$a" timeout)" \
			"$(count "$k" pass)" "$(count "$k" fail)" "$(count "$k" skip)" "$(count "$k" timeout)" \
			"$fi" "$alone_s" "$check_s"
	done < "$dir/times"
	echo
	wall=
	[ -s "$dir/wall" ] && read -r guests secs < "$dir/wall" &&
		wall=" Wall time $((secs / 60)) min $((secs % 60)) s, $guests guest$([ "$guests" = 1 ] && echo " alone" || echo "s side by side")."
	echo "$(wc -l < "$dir/times") collections, $tot_t tests, $tot_f findings.$wall"
	# the tests whose own results varied between the two runs
	varied=$(cat "$dir"/*.varied 2> /dev/null | paste -sd';' | sed 's/;/; /g' || true)
	if [ -n "$varied" ]; then
		echo
		echo "Results that differed between the two runs, of tests whose own results vary from run to run (guest/sweep-nondeterministic.txt says why): $varied."
	fi
	# the tests that timed out under check alone, from check's cost there
	slow=$(cat "$dir"/*.slower 2> /dev/null | paste -sd';' | sed 's/;/; /g' || true)
	if [ -n "$slow" ]; then
		echo
		echo "Timed out under check only, where check's programs cost more on this kernel than its bound allows (guest/sweep-slower-under-check.txt says why): $slow."
	fi
	# a guest that ran out of time: what it did not reach
	left=$(cut -d' ' -f1 "$dir/times" | grep -vxF -f - "$dir/planned" 2> /dev/null | paste -sd' ' || true)
	if [ -n "$left" ]; then
		echo
		echo "Not run: the guests ran out of time before: $left."
	fi
	if [ -s "$dir/not-built.txt" ]; then
		echo
		echo "Not built here, statically or dynamically (the build's first error):"
		echo
		echo "| collection | why |"
		echo "|---|---|"
		sed 's/|/\\|/g; s/^\([^\t]*\)\t\(.*\)$/| \1 | `\2` |/' "$dir/not-built.txt"
	fi
} > "$block"
awk -v block="$block" -v name="$name" '
	$0 == "<!-- " name ":begin -->" { print; while ((getline l < block) > 0) print l; skip = 1; next }
	$0 == "<!-- " name ":end -->" { skip = 0 }
	!skip' "$doc" > "$block.doc"
cat "$block.doc" > "$doc"
