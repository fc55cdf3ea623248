#!/bin/sh
# Statistics belong to an object, not to a name (KTAP). One ucounttop runs
# while uct-workload --denials runs again and again, one run after the
# other. The rows (init, 1004) and (D1, 1005) of each run are new struct
# ucounts under names an earlier run used: (init, 1004) always, and D1's
# inode whenever nsfs hands it back (inode numbers are reused lowest first,
# but the workload creates its top-level namespaces in parallel and frees
# them from a workqueue, so D1 gets an earlier D1's inode in most runs, not
# all). Each row must show exactly its own run's refusals and limit hits,
# never a sum. The runs go on until D1 has reused an earlier D1's inode,
# at most six after the first. The header's totals count every run's.
. /uct/tests/lib/ktap.sh
UCT=/uct/bin/ucounttop
WL=/uct/bin/uct-workload
T=/tmp/t59
RUNS=6
rm -rf $T
mkdir -p $T
echo "KTAP version 1"
. /uct/tests/lib/json-rows.sh
docs() { _d=$(grep -c ']}$' $T/stream 2>/dev/null); echo "${_d:-0}"; }
more_docs() { [ "$(docs)" -ge "$1" ]; }
has_row() { grep ']}$' $T/stream | tail -n 1 > $T/last.json; [ -n "$(row $T/last.json $1 $2)" ]; }
no_row() { ! has_row "$@"; }

if ! grep -q btf_trace_ucounts_free /sys/kernel/btf/vmlinux 2>/dev/null; then
	echo "# kernel without the ucounts_free tracepoint: statistics cannot follow frees"
	exit 4
fi
$UCT --json -d 0.3 > $T/stream 2> $T/err &
u=$!
waitfor 300 more_docs 1 || { fail "ucounttop attached"; cat $T/err; kill $u; exit 1; }

# one run of the workload: holds until READY has been seen twice in the view
# the workload's file is created by its redirection, in the child
ready() { grep -q '^READY' "$1" 2> /dev/null; }
run_once() { # run_once NAME
	$WL --denials > $T/$1.wl 2> $T/$1.err &
	wl_pid=$!
	waitfor 600 ready $T/$1.wl || { fail "$1: workload ready"; cat $T/$1.err; }
	have=$(docs)
	waitfor 300 more_docs $((have + 2))
	grep ']}$' $T/stream | tail -n 1 > $T/$1.json
	kill $wl_pid; wait $wl_pid
}

run_once first
d1=$(grep '^NS D1' $T/first.wl | cut -d' ' -f3)
init=$(grep '^NS init' $T/first.wl | cut -d' ' -f3)
deny1=$(field "$(row $T/first.json $d1 1005)" nproc denials)
hits1=$(field "$(row $T/first.json $init 1004)" nproc limit_hits)
expect "first run: D1 uid 1005 nproc denials" "$deny1" 3
expect "first run: (init, 1004) nproc limit hits" "$hits1" 3
# both rows gone (their ucounts freed) before the second run
waitfor 300 no_row $d1 1005 || fail "first run's D1 row freed"
waitfor 300 no_row $init 1004 || fail "first run's (init, 1004) row freed"

# later runs: each row's statistics are the run's own; stop once D1's
# inode is one an earlier D1 had (the case under test)
seen=" $d1 " reused= k=1 got_all= want_all= hits_all=
while [ -z "$reused" ] && [ $k -le $RUNS ]; do
	k=$((k + 1))
	run_once run$k
	d1b=$(grep '^NS D1' $T/run$k.wl | cut -d' ' -f3)
	echo "# run $k: D1 inode $d1b (earlier D1s:$seen)"
	for type in nproc msgqueue sigpending memlock; do
		want_all="$want_all run$k:$type=$(grep "^DENY .* $type " $T/run$k.wl | cut -d' ' -f5)"
		got_all="$got_all run$k:$type=$(field "$(row $T/run$k.json $d1b 1005)" $type denials)"
	done
	hits_all="$hits_all run$k:$(field "$(row $T/run$k.json $init 1004)" nproc limit_hits)"
	case "$seen" in *" $d1b "*) reused=$d1b ;; esac
	seen="$seen$d1b "
	waitfor 300 no_row $d1b 1005 || fail "run $k's D1 row freed"
	waitfor 300 no_row $init 1004 || fail "run $k's (init, 1004) row freed"
done
expect "every later run: D1 uid 1005 denials of each type are the run's own" "$got_all" "$want_all"
expect "every later run: (init, 1004) nproc limit hits are the run's own" \
	"$hits_all" "$(seq 2 $k | sed 's/^/ run/; s/$/:3/' | tr -d '\n')"
# the header's totals are kept apart from the rows: every run's refusals,
# with all of their rows freed
grep ']}$' $T/stream | tail -n 1 > $T/last.json
want_tot= got_tot=
for type in nproc msgqueue sigpending memlock; do
	want_tot="$want_tot $type:$(cat $T/first.wl $T/run*.wl | awk -v t=$type '$1 == "DENY" && $4 == t { s += $5 } END { print s + 0 }')"
	got_tot="$got_tot $type:$(sed -n 's/.*"circles":[0-9]*,[^}]*},"denials":{[^}]*"'$type'":\([0-9]*\).*/\1/p' $T/last.json)"
done
expect "header denials: every run's, after their rows were freed" "$got_tot" "$want_tot"
if [ -n "$reused" ]; then
	pass "a later D1 reused an earlier one's inode ($reused, run $k): the case under test"
else
	pass "D1 reused an earlier inode # SKIP not in $RUNS runs (inodes:$seen)"
fi
kill -INT $u
wait $u
echo "1..$n"
[ "$fails" -eq 0 ]
