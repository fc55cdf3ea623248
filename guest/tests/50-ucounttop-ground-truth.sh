#!/bin/sh
# 50: ucounttop --json -n 1 reports exactly what uct-workload holds, at
# every level of a 3-deep user-namespace tree under several uids:
# processes, queued RT signals, mqueue bytes, SHM_LOCKed pages; the parent
# links; no false flags; SIGPENDING equals SigQ: in /proc/PID/status.
# Runs once per snapshot source the kernel offers (iter/ucounts with our
# series, and always iter/task).
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
T=/tmp/t50
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { # check DESC CONDITION...
	d=$1; shift
	if "$@"; then ok "$d"; else nok "$d"; fi
}

# One JSON row per line: {"ns":I,"level":L,"uid":U,...}
rows() { sed 's/{"ns":/\n{"ns":/g' "$1" | grep '^{"ns":[0-9]*,"level":[0-9]*,"uid":'; }
row() { grep "^{\"ns\":$2,\"level\":[0-9]*,\"uid\":$3," "$1.rows"; }
field() { # field ROWTEXT TYPE KEY -> number
	echo "$1" | sed -n "s/.*\"$2\":{[^}]*\"$3\":\([-0-9]*\).*/\1/p"
}

[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }

$WL > $T/wl.out 2> $T/wl.err &
wl=$!
i=0
while ! grep -q '^READY' $T/wl.out 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 300 ] || ! kill -0 $wl 2>/dev/null; then
		nok "workload ready"
		cat $T/wl.err
		echo "1..$n"
		exit 1
	fi
	sleep 0.2
done
ok "workload ready ($(grep -c '^PROC' $T/wl.out) processes in $(grep -c '^NS' $T/wl.out) namespaces)"
cleanup() { kill $wl 2>/dev/null; wait $wl 2>/dev/null; }
trap cleanup EXIT

# Snapshot sources to test: the default one, and iter/task if it differs.
$UCT --json -n 1 > $T/default.json 2> $T/default.err
rc=$?
check "ucounttop --json -n 1 exits 0 (got $rc)" [ $rc -eq 0 ]
src=$(sed -n 's/.*"snapshot":"\([^"]*\)".*/\1/p' $T/default.json)
echo "# default snapshot source: $src"
runs="default"
if [ "$src" != "iter/task" ]; then
	$UCT --json -n 1 --task-iter > $T/taskiter.json 2> $T/taskiter.err
	check "ucounttop --task-iter exits 0" [ $? -eq 0 ]
	runs="default taskiter"
else
	echo "# kernel has no iter/ucounts: only the task iterator is tested"
fi

for run in $runs; do
	j=$T/$run.json
	rows $j > $j.rows
	check "$run: one JSON document, schema ucounttop/1" \
		[ "$(wc -l < $j)" -eq 1 -a -n "$(grep '"schema":"ucounttop/1"' $j)" ]
	# every EXPECT line: all four counters of that row
	grep '^EXPECT' $T/wl.out | while read -r _ ns lvl uid np mq sp ml; do
		r=$(row $j $ns $uid)
		got="$(field "$r" nproc value) $(field "$r" msgqueue value) $(field "$r" sigpending value) $(field "$r" memlock value)"
		glvl=$(echo "$r" | sed -n 's/^{"ns":[0-9]*,"level":\([0-9]*\),.*/\1/p')
		if [ "$got" = "$np $mq $sp $ml" ] && [ "$glvl" = "$lvl" ]; then
			echo "ok - $run: L$lvl ns $ns uid $uid = nproc $np msgqueue $mq sigpending $sp memlock $ml"
		else
			echo "not ok - $run: L$lvl ns $ns uid $uid: want '$np $mq $sp $ml' level $lvl, got '$got' level '$glvl'"
		fi
	done > $T/$run.expect
	# renumber the per-row results into our TAP stream
	while read -r line; do
		case "$line" in
		"ok - "*) ok "${line#ok - }" ;;
		*) nok "${line#not ok - }" ;;
		esac
	done < $T/$run.expect

	# parent links: rows of namespace X point at (parent of X, creator of X)
	bad=0
	grep '^NS' $T/wl.out | while read -r _ name inum lvl pinum creator; do
		[ "$lvl" = 0 ] && continue
		grep "^{\"ns\":$inum," $j.rows | grep -v "\"parent_ns\":$pinum,\"parent_uid\":$creator," && echo BAD
	done > $T/$run.links
	check "$run: every row's parent is (parent ns, creator uid)" [ ! -s $T/$run.links ]

	# nothing of ours is flagged over limit or imbalanced
	ours=$(grep '^EXPECT' $T/wl.out | while read -r _ ns _ uid _; do row $j $ns $uid; done)
	check "$run: no over_limit/imbalanced flags on workload rows" \
		[ -z "$(echo "$ours" | grep -E 'over_limit|imbalanced')" ]
done

# SIGPENDING against the kernel's own SigQ: (leaf counter of the task's row)
j=$T/default.json
grep '^PROC' $T/wl.out | while read -r _ pid ns uid role; do
	q=$(sed -n 's/^SigQ:[[:space:]]*\([0-9]*\)\/.*/\1/p' /proc/$pid/status)
	v=$(field "$(row $j $ns $uid)" sigpending value)
	if [ -n "$q" ] && [ "$q" = "$v" ]; then
		echo "ok - SigQ of pid $pid ($role, ns $ns uid $uid) = $q = ucounttop sigpending"
	else
		echo "not ok - SigQ of pid $pid ($role, ns $ns uid $uid) = '$q', ucounttop says '$v'"
	fi
done > $T/sigq
while read -r line; do
	case "$line" in
	"ok - "*) ok "${line#ok - }" ;;
	*) nok "${line#not ok - }" ;;
	esac
done < $T/sigq

# after the workload is gone its rows are gone too (uncharged, freed)
cleanup
trap - EXIT
$UCT --json -n 1 > $T/after.json
left=$(grep '^EXPECT' $T/wl.out | while read -r _ ns _ uid _; do
	sed 's/{"ns":/\n{"ns":/g' $T/after.json | grep "^{\"ns\":$ns,\"level\":[0-9]*,\"uid\":$uid,"
done)
check "workload rows gone after it exits" [ -z "$left" ]
echo "1..$n"
