#!/bin/bash
# make sweep: every kselftest collection that builds statically
# (guest/build-sweep.sh) run in the mainline guest, alone by kselftest's
# runner and then under `ucounttop check --kselftest` (guest/sweep.sh).
# TAP, a line per collection:
#   ok      kselftest's results under check are its results alone (but
#           for tests guest/sweep-nondeterministic.txt lists, whose own
#           results vary from run to run, and tests that
#           guest/sweep-slower-under-check.txt lists for this kernel,
#           which may time out under check alone), and every check
#           finding is explained in guest/sweep-explained.txt
#   not ok  otherwise, naming the tests
# The runs' KTAP and times stay in $LOGDIR/sweep/ (from the guest's
# results stream, so a guest that runs out of time keeps the collections
# it ended); guest/sweep-to-doc.sh turns them into docs/testing.md's table.
#
# Knobs: SWEEP_ON, the kernel: mainline (default: ours, with the series),
# debug (its debug kernel, make kernel-debug: KASAN, lockdep, kmemleak;
# kmemleak scanned after the last collection and the console scanned for
# kernel reports, tests/host/splat-scan.sh) or stock-FLAVOUR (Debian's
# stock kernel, guest/fetch-stock-kernel.sh: stock-7.x, the stock path);
# SWEEP_ONLY (collections, space-separated: only those are built when
# no whole sweep is), SWEEP_SMP (4, 2 on debug), SWEEP_MEM (MB, 2048),
# SWEEP_TIMEOUT (s, each guest, 14400), SWEEP_UNBOUNDED (s, a test
# of a collection whose settings set no timeout, 120), SWEEP_OUT (the logs'
# directory, default $LOGDIR/sweep, sweep-debug, sweep-stock-FLAVOUR),
# SWEEP_GUESTS (guests side by side, each given a share of the
# collections balanced on the last run's times: 2 for a whole sweep, a
# TCG guest using one host core; 1 with SWEEP_ONLY), SWEEP_REJUDGE (1:
# no guest, the results in the logs' directory judged again, after
# guest/sweep-explained.txt or sweep-nondeterministic.txt changed).
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

EXPLAINED=$UCT_ROOT/guest/sweep-explained.txt
NONDET=$UCT_ROOT/guest/sweep-nondeterministic.txt
SLOWER=$UCT_ROOT/guest/sweep-slower-under-check.txt
# the guest image must hold ucounttop and the sweep's timeout: guest/run
# would make one without them
for f in cli/ucounttop tools/uct-timeout; do
	[ -x "$UCT_OUT/$f" ] || { echo "Bail out! $UCT_OUT/$f is not built (run 'make guest')"; exit 1; }
done
on=${SWEEP_ON:-mainline}
kernel=() append=() adds=() smp=${SWEEP_SMP:-4} name=
case "$on" in
mainline) out=$LOGDIR/sweep ;;
debug)
	[ -f "$BZIMAGE_DEBUG" ] ||
		{ echo "Bail out! SWEEP_ON=debug: $BZIMAGE_DEBUG missing (run 'make kernel-debug')"; exit 1; }
	kernel=(--kernel "$BZIMAGE_DEBUG")
	# as tests/host/debug-kernel.sh boots it
	append=(--append "loglevel=7 kasan_multi_shot acpi=noirq")
	smp=${SWEEP_SMP:-2}
	out=$LOGDIR/sweep-debug name="debug " ;;
stock-*)
	dir=$("$UCT_ROOT/guest/fetch-stock-kernel.sh" "${on#stock-}" | tail -n 1) ||
		{ echo "Bail out! SWEEP_ON=$on: the stock kernel was not fetched"; exit 1; }
	kernel=(--kernel "$dir/vmlinuz")
	adds=(--add "$dir/early-modules:/uct/early-modules")
	out=$LOGDIR/sweep-$on name="$on " ;;
*) echo "Bail out! SWEEP_ON=$on: mainline, debug or stock-FLAVOUR (stock-7.x, say)"; exit 1 ;;
esac
out=${SWEEP_OUT:-$out}
if [ -n "${SWEEP_REJUDGE:-}" ]; then
	# the last sweep's results judged again (after a list changed)
	[ -s "$out/results" ] || { echo "Bail out! SWEEP_REJUDGE: no sweep results in $out"; exit 1; }
	rm -rf "$out/alone" "$out/check" "$out/times" "$out"/*.varied "$out"/*.slower
else
	# shellcheck disable=SC2086 # the collections, one word each
	dest=$("$UCT_ROOT/guest/build-sweep.sh" ${SWEEP_ONLY:-}) ||
		{ echo "Bail out! the sweep did not build"; exit 1; }
	for c in ${SWEEP_ONLY:-}; do
		grep -q "^$c:" "$dest/kselftest-list.txt" || {
			echo "Bail out! SWEEP_ONLY: '$c' is no collection the sweep built (see guest/sweep-excluded.txt and $dest/not-built.txt)"
			exit 1
		}
	done
	guests=${SWEEP_GUESTS:-$([ -n "${SWEEP_ONLY:-}" ] && echo 1 || echo 2)}
	case "$guests" in
	[1-8]) ;;
	*) echo "Bail out! SWEEP_GUESTS=$guests: a number of guests from 1 to 8"; exit 1 ;;
	esac
	# the last run's times, to balance this one's guests
	last=$(cat "$out/times" 2> /dev/null)
	rm -rf "$out"
	mkdir -p "$out"
	cp "$dest/not-built.txt" "$out/"
	if [ -n "${SWEEP_ONLY:-}" ]; then
		printf '%s\n' $SWEEP_ONLY > "$out/planned"
	else
		cut -d: -f1 "$dest/kselftest-list.txt" | uniq > "$out/planned"
	fi
	# Shares: longest first, each to the guest with the least so far (a
	# collection the last run did not end counts 300 s); each guest runs its
	# share in the planned order.
	echo "$last" | awk -v n="$guests" -v out="$out" '
		FILENAME == "-" { if (NF >= 3) secs[$1] = $2 + $3; next }
		{ c[++m] = $1; w[m] = ($1 in secs) ? secs[$1] : 300 }
		END {
			for (i = 1; i <= m; i++) order[i] = i
			for (i = 2; i <= m; i++)	# insertion sort, heaviest first
				for (j = i; j > 1 && w[order[j]] > w[order[j - 1]]; j--) {
					t = order[j]; order[j] = order[j - 1]; order[j - 1] = t
				}
			for (g = 1; g <= n; g++) load[g] = 0
			for (i = 1; i <= m; i++) {
				best = 1
				for (g = 2; g <= n; g++) if (load[g] < load[best]) best = g
				load[best] += w[order[i]]; share[order[i]] = best
			}
			for (i = 1; i <= m; i++) print c[i] > (out "/share-" share[i])
		}' - "$out/planned"
	# run_guest K: guest K's share, its results and console in $out/guest-K
	run_guest() {
		local d=$out/guest-$1 only
		mkdir -p "$d"
		only=$(tr '\n' ' ' < "$out/share-$1")
		"$UCT_ROOT/guest/run" --tree "$KTREE" "${kernel[@]}" "${append[@]}" "${adds[@]}" --smp "$smp" \
			--mem "${SWEEP_MEM:-2048}" --timeout "${SWEEP_TIMEOUT:-14400}" -q \
			--console "$d/console" --results "$d/results" \
			--add "$UCT_ROOT/guest/sweep.sh" --add "$dest:/uct/sweep" \
			--add /bin/bash-static:/uct/sweep-bin/bash \
			-- env SWEEP_ONLY="$only" SWEEP_UNBOUNDED="${SWEEP_UNBOUNDED:-120}" \
			sh /uct/add/sweep.sh > "$d/guest.log" 2>&1
		echo $? > "$d/rc"
	}
	# the commit the guests' ucounttop comes from, for the table
	{
		git -C "$UCT_ROOT" rev-parse --short HEAD
		git -C "$UCT_ROOT" diff --quiet HEAD -- . ":!docs/testing.md" || echo "with local changes"
	} 2> /dev/null | paste -sd' ' > "$out/commit"
	start=$(date +%s)
	for g in $(seq "$guests"); do
		[ -s "$out/share-$g" ] && run_guest "$g" &
	done
	wait
	echo "$(ls "$out"/share-* | wc -l) $(($(date +%s) - start))" > "$out/wall"
	for g in $(seq "$guests"); do
		[ -s "$out/share-$g" ] || continue
		cat "$out/guest-$g/results" >> "$out/results" 2> /dev/null
		cat "$out/guest-$g/console" >> "$out/console" 2> /dev/null
	done
fi
# how the guests ended (this run's, or the judged run's)
rc=0
for f in "$out"/guest-*/rc; do
	r=$(cat "$f")
	[ "$r" -eq 0 ] || { rc=$r; echo "# sweep: ${f%/rc} exited $r (console: ${f%/rc}/console)"; }
done
# each collection's two runs, and its times, from the results stream
mkdir -p "$out/alone" "$out/check"
awk -v out="$out" '
	$1 == "T" { $1 = ""; sub(/^ /, ""); print > (out "/times"); next }
	$1 == "V" { print $2, $3 > (out "/kernel"); next }
	$1 == "A" || $1 == "C" {
		f = $2; gsub("/", "_", f)
		line = $0; sub(/^[AC] [^ ]* /, "", line)
		print line > (out "/" ($1 == "A" ? "alone" : "check") "/" f ".ktap")
	}' "$out/results" 2> /dev/null
# in the planned order, whichever guest ran them
if [ -s "$out/times" ]; then
	awk 'NR == FNR { t[$1] = $0; next } $1 in t { print t[$1] }' "$out/times" "$out/planned" > "$out/times.planned"
	mv "$out/times.planned" "$out/times"
fi
if [ ! -s "$out/times" ]; then
	echo "Bail out! the sweep guest exited $rc with no collection done (console: $out/console)"
	exit 1
fi

# results FILE [check]: "RESULT TEST" per test of a runner's KTAP, RESULT
# one of pass, fail, skip, timeout, and for check's runner finding (its
# exit 1: an imbalance; a test's own exit 1 alone is a failure). A result
# may follow a test's last output on the same line: a test killed at its
# timeout leaves its line unfinished ("# Estimating clock drift: not ok 7
# selftests: timers: raw_skew # TIMEOUT 120 seconds").
results() {
	awk -v check="${2:-}" 'match($0, /(not )?ok [0-9]+ selftests: [^:]*: /) {
		r = (substr($0, RSTART, 3) == "not") ? "fail" : "pass"
		line = substr($0, RSTART + RLENGTH)
		t = line; sub(/ *#.*/, "", t)
		if (line ~ /# *SKIP/) r = "skip"
		else if (line ~ /# *TIMEOUT/) r = "timeout"
		else if (check && line ~ /# *exit=1$/) r = "finding"
		print r, t
	}' "$1"
}
# listed FILE: the COLLECTION:TEST keys of a list (its lines' first
# words; '#' starts a comment line)
listed() { sed -e 's/^[[:space:]]*#.*//' -e '/^[[:space:]]*$/d' "$1" 2> /dev/null | awk '{ print $1 }'; }
# slower: the keys sweep-slower-under-check.txt lists for this kernel
# (lines KERNEL COLLECTION:TEST WHY)
slower() { sed -e 's/^[[:space:]]*#.*//' "$SLOWER" 2> /dev/null | awk -v k="$on" '$1 == k { print $2 }'; }

n=0
fails=0
while read -r c alone_s check_s check_rc; do
	f=$(echo "$c" | tr / _)
	results "$out/alone/$f.ktap" | sort -k2 > "$out/$f.alone"
	results "$out/check/$f.ktap" check | sort -k2 > "$out/$f.check"
	# what check says of each test, and what the test did alone
	bad= varied= slow=
	while read -r r t; do
		a=$(awk -v t="$t" '$2 == t { print $1 }' "$out/$f.alone")
		if [ "$r" = finding ]; then
			listed "$EXPLAINED" | grep -qxF "$c:$t" || bad="$bad $t(finding)"
		elif [ "$r" != "$a" ] && listed "$NONDET" | grep -qxF "$c:$t"; then
			varied="$varied $t($a alone, $r under check)"
		elif [ "$r" = timeout ] && [ "$a" != timeout ] && slower | grep -qxF "$c:$t"; then
			slow="$slow $t($a alone, $r under check)"
		elif [ "$r" != "$a" ]; then
			bad="$bad $t($a alone, $r under check)"
		fi
	done < "$out/$f.check"
	[ -z "$varied" ] || echo "$c:$varied" > "$out/$f.varied"
	[ -z "$slow" ] || echo "$c:$slow" > "$out/$f.slower"
	[ "$(wc -l < "$out/$f.check")" -eq "$(wc -l < "$out/$f.alone")" ] ||
		bad="$bad (a test missing from a run)"
	n=$((n + 1))
	sum="$(awk '{ c[$1]++ } END { printf "pass %d fail %d skip %d timeout %d", c["pass"], c["fail"], c["skip"], c["timeout"] }' "$out/$f.alone")"
	if [ -z "$bad" ] && [ -n "$varied$slow" ]; then
		echo "ok $n sweep: $name$c: $sum alone; under check, only what guest/sweep-nondeterministic.txt lists differs:${varied:- none}; timed out under check alone, as guest/sweep-slower-under-check.txt says for $on:${slow:- none}; no unexplained finding (${alone_s}s alone, ${check_s}s under check)"
	elif [ -z "$bad" ]; then
		echo "ok $n sweep: $name$c: $sum alone, the same under check, no unexplained finding (${alone_s}s alone, ${check_s}s under check)"
	else
		fails=$((fails + 1))
		echo "not ok $n sweep: $name$c: $sum alone; under check:$bad"
	fi
done < "$out/times"
# a guest that ran out of time or failed: the collections it did not end
if [ $rc -ne 0 ]; then
	n=$((n + 1))
	fails=$((fails + 1))
	echo "not ok $n sweep: a guest exited $rc; $(wc -l < "$out/times") of $(wc -l < "$out/planned") collections ended (consoles: $out/guest-*/console)"
fi
# the debug kernel: what its checkers reported over the whole sweep
if [ "$on" = debug ]; then
	n=$((n + 1))
	scans=$(tr -d '\r' < "$out/console" | grep -c '^uct-debug: kmemleak scanned twice')
	if [ "$scans" -eq "$(ls "$out"/share-* | wc -l)" ]; then
		echo "ok $n sweep: debug kmemleak scanned twice after the last collection, in each of $scans guests"
	else
		fails=$((fails + 1))
		echo "not ok $n sweep: debug kmemleak scanned twice after the last collection (in $scans of $(ls "$out"/share-* | wc -l) guests)"
	fi
	"$UCT_ROOT/tests/host/splat-scan.sh" "$out/console" $((n + 1)) > "$out/splats"
	[ $? -eq 0 ] || fails=$((fails + 1))
	sed 's/^\(\(not \)\{0,1\}ok [0-9]* \)/\1sweep: debug /' "$out/splats"
	n=$((n + $(grep -cE '^(not )?ok ' "$out/splats")))
fi
echo "1..$n"
[ $fails -eq 0 ]
