#!/bin/sh
# 51: refused charges are counted on the right row. uct-workload --denials
# creates namespace D1 with low rlimits and has one process try, and fail,
# 3 forks, 2 RT signals, 1 mqueue and 1 SHM_LOCK beyond them; it counts
# the EAGAIN/EMFILE/ENOMEM it got. ucounttop, attached before, must report
# the same numbers:
#   --events      all four types (stock: fexit + signal_generate; series:
#                 the ucounts_rlimit_refused tracepoint)
#   default       all four types: from ucounts_rlimit_refused (one event per
#                 refused request), or on a stock kernel from the callers'
#                 checks (fexit is_rlimit_overlimit and inc_rlimit_ucounts,
#                 signal_generate)
# and the level over its limit gets the NPROC limit hits.
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
T=/tmp/t51
mkdir -p $T
. /uct/tests/lib/ktap.sh
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
. /uct/tests/lib/json-rows.sh

[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }

wait_lines() { # wait_lines FILE N: until FILE has N complete lines
	i=0
	while :; do
		c=$(grep -c ']}$' "$1" 2>/dev/null)
		[ "${c:-0}" -ge "$2" ] && return 0
		i=$((i + 1)); [ $i -gt 600 ] && return 1; sleep 0.1
	done
}

# reader_start MODE [ucounttop options]: ucounttop --json into
# $T/MODE.stream (pid $u) until its first document; 1, reported, if none
reader_start() {
	mode=$1; shift
	# emptied first: the redirection below happens in the child, and a
	# stream left by an earlier run would pass wait_lines at once
	: > $T/$mode.stream
	$UCT --json -d 0.3 "$@" > $T/$mode.stream 2> $T/$mode.err &
	u=$!
	wait_lines $T/$mode.stream 1 && return 0
	nok "$mode: ucounttop attached"; cat $T/$mode.err; kill $u
	return 1
}
# reader_stop MODE N WHAT: N documents more, then SIGINT: exit 0; the last
# document in $T/MODE.json
reader_stop() {
	have=$(grep -c ']}$' $T/$1.stream)
	wait_lines $T/$1.stream $((have + $2)) || nok "$1: $3"
	kill -INT $u
	wait $u
	rc=$?
	check "$1: ucounttop exits 0 on SIGINT (got $rc)" [ $rc -eq 0 ]
	grep ']}$' $T/$1.stream | tail -n 1 > $T/$1.json
}

# run MODE [ucounttop options]: attach, run the workload, take a snapshot
# after it is ready, stop both. Leaves $T/MODE.json (last document) and
# $T/MODE.wl (workload output).
run() {
	mode=$1; shift
	reader_start $mode "$@" || return 1
	$WL --denials > $T/$mode.wl 2> $T/$mode.wlerr &
	w=$!
	i=0
	while ! grep -q '^READY' $T/$mode.wl 2>/dev/null; do
		i=$((i + 1))
		if [ $i -gt 300 ] || ! kill -0 $w 2>/dev/null; then
			nok "$mode: workload ready"; cat $T/$mode.wlerr; kill $u $w; return 1
		fi
		sleep 0.2
	done
	reader_stop $mode 2 "two snapshots after the workload"
	kill $w; wait $w
	return 0
}

expect_denials() { # expect_denials MODE TYPES...
	mode=$1; shift
	for type in "$@"; do
		set -- $(grep "^DENY .* $type " $T/$mode.wl)
		ns=$2 uid=$3 want=$5
		got=$(field "$(row $T/$mode.json $ns $uid)" $type denials)
		m=$(misses $T/$mode.json)
		check "$mode: $type denials on (ns $ns, uid $uid) = $want refused by the kernel (got '$got'$(miss_note "$got" "$want" "$m"))" \
			within_misses "$got" "$want" "$m"
	done
}

if run events --events; then
	expect_denials events nproc msgqueue sigpending memlock
	# NPROC refusals were over the limit one level up: (init, creator of D1)
	d1=$(grep '^NS D1' $T/events.wl | cut -d' ' -f3)
	init=$(grep '^NS init' $T/events.wl | cut -d' ' -f3)
	hits=$(field "$(row $T/events.json $init 1004)" nproc limit_hits)
	m=$(misses $T/events.json)
	check "events: nproc limit hits at (init, uid 1004), the level over max 3: 3 (got '$hits'$(miss_note "$hits" 3 "$m"))" \
		within_misses "$hits" 3 "$m"
	r=$(row $T/events.json $d1 1005)
	check "events: denied row flagged 'denials'" [ -n "$(echo "$r" | grep '"flags":\[[^]]*"denials"')" ]
	check "events: charges counted with --events" [ "$(field "$r" sigpending charges)" -ge 4 ]
	# values still exact while holding what was allowed
	v="$(field "$r" nproc value) $(field "$r" msgqueue value) $(field "$r" sigpending value) $(field "$r" memlock value)"
	want=$(grep "^EXPECT $d1 1 1005 " $T/events.wl | cut -d' ' -f5-)
	check "events: D1 uid 1005 values = '$want' (got '$v')" [ "$v" = "$want" ]
fi

if run default; then
	init=$(grep '^NS init' $T/default.wl | cut -d' ' -f3)
	hits=$(field "$(row $T/default.json $init 1004)" nproc limit_hits)
	m=$(misses $T/default.json)
	check "default: nproc limit hits at (init, uid 1004): 3 (got '$hits'$(miss_note "$hits" 3 "$m"))" \
		within_misses "$hits" 3 "$m"
	expect_denials default nproc msgqueue sigpending memlock
	# the charge functions' returns decide refusals (and tell a failed
	# sigqueue allocation from one); nothing counts charges or uncharges
	check "default: no per-event hooks counting charges or uncharges" \
		[ -z "$(grep -E 'fentry:inc_rlimit_get_ucounts|dec_rlimit|ucounts_rlimit_charge' $T/default.json)" ]
fi

# a statistics map too small: rows past it get no statistics and
# stats_full counts each miss, on every kernel (the map is never an LRU,
# which would evict without a count). 24 uids each have a fork refused
# (RLIMIT_NPROC 0; a refusal is what gives a row statistics in the default
# view) while a sleeper of theirs keeps the row alive, so that no row's
# entry is freed: 16 rows get one, the other 8 none.
# hold_row UID: a sleeper of UID's in the background ($held), returned once
# it runs as UID: the row it holds exists before the refusal that follows
# (a refusal before it would charge a ucounts of the refusing process's own,
# freed with it, and the sleeper's row would be a new one, at another
# address, without the refusal's statistics)
hold_row() {
	$WL --exec-as "$1" -- /bin/sleep 120 &
	held=$!
	waitfor 300 grep -qs "^Uid:[[:space:]]*$1[[:space:]]" /proc/$held/status
}
tot_nproc() { grep ']}$' $T/full.stream | tail -n 1 | sed -n 's/.*},"denials":{"nproc":\([0-9]*\),.*/\1/p'; }
got_all() { [ "$(tot_nproc)" = 24 ]; }
if reader_start full --max-entries 16; then
	# the same loss in the table and in OpenMetrics, from two more readers
	$UCT -b -d 0.3 --max-entries 16 > $T/full.table 2>&1 &
	ut=$!
	$UCT --openmetrics -d 0.3 --max-entries 16 > $T/full.om 2>&1 &
	uo=$!
	i=0
	while { ! grep -q '^ucounttop' $T/full.table || ! grep -q '^# EOF' $T/full.om; } &&
	      [ $i -lt 300 ]; do i=$((i + 1)); sleep 0.1; done
	pids=
	for uid in $(seq 3100 3123); do
		hold_row $uid
		pids="$pids $held"
		$WL --exec-as $uid -- /bin/sh -c 'ulimit -u 0; /bin/true; exit 0' 2> /dev/null
	done
	i=0
	while ! got_all && [ $i -lt 300 ]; do i=$((i + 1)); sleep 0.1; done
	reader_stop full 1 "a snapshot after the 24 refusals"
	# the table and OpenMetrics readers refresh on their own: their next
	# document after the refusals, not a second's worth of waiting (a
	# loaded machine makes a refresh late)
	i=0
	while { ! grep -q 'drops 0/16' $T/full.table ||
		! grep -q '^ucounttop_drops_total{kind="stats_full"} 16$' $T/full.om; } &&
	      [ $i -lt 300 ]; do i=$((i + 1)); sleep 0.1; done
	kill -INT $ut $uo
	wait $ut $uo
	kill $pids 2> /dev/null
	check "full: the header counts all 24 refusals (got '$(tot_nproc)')" got_all
	full=$(sed -n 's/.*"stats_full":\([0-9]*\).*/\1/p' $T/full.json)
	check "--max-entries 16: stats_full counts a denial and a limit hit for each of the 8 rows past it (got '$full')" \
		[ "$full" = 16 ]
	# the split by cgroup has its own map, as large, and its own count
	cgfull=$(sed -n 's/.*"cg_denials_full":\([0-9]*\).*/\1/p' $T/full.json)
	check "--max-entries 16: cg_denials_full counts the 8 refusals whose cgroup was not kept (got '$cgfull')" \
		[ "$cgfull" = 8 ]
	with=$(sed 's/{"ns":/\n{"ns":/g' $T/full.json | grep '^{"ns":4026531837,"level":0,"uid":31[0-2][0-9],' |
		grep -c '"nproc":{[^}]*"denials":1')
	check "--max-entries 16: 16 of the 24 rows have statistics (got $with)" [ "$with" = 16 ]
	drops=$(grep -o 'drops [0-9]*/[0-9]*' $T/full.table | tail -n 1)
	check "--max-entries 16: the table's header shows the 16 lost ('$drops')" \
		[ "$drops" = "drops 0/16" ]
	om=$(grep '^ucounttop_drops_total{kind="stats_full"}' $T/full.om | tail -n 1)
	check "--max-entries 16: OpenMetrics counts the 16 lost ('$om')" \
		[ "$om" = 'ucounttop_drops_total{kind="stats_full"} 16' ]
fi
# rows that are gone leave their entries to no one: the kernel's
# ucounts_free deletes them; without it, a new row's object may get a gone
# one's address, and must still count from zero, with its own name. 8
# uids each have a fork refused and exit; the reader refreshes 10 times;
# 8 other uids, each with a process holding its row, have a fork refused:
# each of those rows shows its one refusal.
if reader_start prune --max-entries 16; then
	for k in 0 1 2 3 4 5 6 7; do
		$WL --exec-as $((3200 + k)) -- /bin/sh -c 'ulimit -u 0; /bin/true; exit 0' 2> /dev/null
	done
	have=$(grep -c ']}$' $T/prune.stream)
	wait_lines $T/prune.stream $((have + 10)) || nok "prune: 10 snapshots after the first uids"
	pids=
	for k in 0 1 2 3 4 5 6 7; do
		hold_row $((3210 + k))
		pids="$pids $held"
		$WL --exec-as $((3210 + k)) -- /bin/sh -c 'ulimit -u 0; /bin/true; exit 0' 2> /dev/null
	done
	reader_stop prune 3 "snapshots after the second uids"
	kill $pids 2> /dev/null
	got=$(sed -n 's/.*},"denials":{"nproc":\([0-9]*\),.*/\1/p' $T/prune.json)
	with=$(sed 's/{"ns":/\n{"ns":/g' $T/prune.json | grep '^{"ns":4026531837,"level":0,"uid":321[0-7],' |
		grep -c '"nproc":{[^}]*"denials":1')
	check "prune: the header counts all 16 refusals (got '$got')" [ "$got" = 16 ]
	check "prune: each of the 8 held rows shows its own refusal, whatever address it got (got $with)" \
		[ "$with" = 8 ]
fi
echo "1..$n"
