# Shared by guest/tests/7*-stress-*.sh (sourced after ktap.sh). One
# "session" per workload:
#
#   stress_init NAME            work directory, binaries (exit 4 if missing)
#   readers_start [ITER-OPTS]   the live view twice, as JSON (--json -d 0.2:
#                               -b and --json exclude each other) and as
#                               text (-b -d 0.2), ucounttop --json --events
#                               -d 0.2, and uct-stress iter-read on the
#                               pinned iterator
#   trace_start LO HI           trace ucounts_rlimit_refused, ucounts_alloc
#                               and ucounts_free of uids LO..HI-1
#   tracer_start UID            ucounttop trace --uid UID (the ring buffer)
#   workload_start ARGS         ucounttop check -- uct-stress ARGS --hold
#   workload_ready              READY, and only the workload's rows left
#   snapshot                    iterator reader stopped, iterator table + two
#                               fresh JSON documents each, trace stopped
#   compare_all LO HI           the counts: workload = iterator = both JSONs,
#                               BPF charges = counters, denials, limit hits,
#                               drops, the iterator reader's passes
#   workload_release            SIGUSR1, check's verdict, rows gone, readers
#                               stopped and their own checks
#
# Counts are asserted, never timings; every wait is bounded (a wait that
# runs out is one failure, with what was seen). Times are printed.
#
# STRESS_LIGHT=1 (the debug kernel's boot, where every process start costs
# seconds): only the readers that drive the series' kernel code - the
# pinned iterator and ucounttop --events (the iterator and every ucounts
# tracepoint) - and the workload without check; the live views, the
# trace reader and check are not started, and what only they show is not
# asserted. The normal guest runs everything.
UCT=${UCT:-/uct/bin/ucounttop}
ST=${ST:-/uct/bin/uct-stress}
STRESS_LIGHT=${STRESS_LIGHT:-0}
# the JSON readers started: ucounttop --json (view) and --json --events
JSONS="view events"
# how often the readers refresh (s) and the iterator reader pauses (ms):
# in the light form less often, so that they leave the checkers' guest
# time for the workload and the comparisons
READ_DELAY=0.2
ITER_PAUSE=20
if [ "$STRESS_LIGHT" = 1 ]; then
	JSONS=events
	READ_DELAY=0.5
	ITER_PAUSE=100
fi
ITER_OBJ=${ITER_OBJ:-/uct/bpf/ucounts_iter.bpf.o}
TRC=/sys/kernel/tracing
REFUSED=$TRC/events/ucounts/ucounts_rlimit_refused

stress_init() {
	NAME=$1
	T=/tmp/$NAME
	PIN=/sys/fs/bpf/uct-$NAME
	rm -rf "$T"
	mkdir -p "$T"
	echo "KTAP version 1"
	for f in "$UCT" "$ST" "$ITER_OBJ"; do
		[ -e "$f" ] || { echo "1..0 # SKIP $f missing"; exit 4; }
	done
	[ -d "$REFUSED" ] || { echo "1..0 # SKIP no ucounts_rlimit_refused event (kernel without the series)"; exit 4; }
	INIT_NS=$(stat -L -c %i /proc/1/ns/user)
	T0=$(date +%s)
	echo "# $(grep -c ^processor /proc/cpuinfo) CPUs$([ "$STRESS_LIGHT" = 1 ] && echo "; light: the iterator and --events only, no live view, trace reader or check")"
}

elapsed() { echo $(($(date +%s) - T0)); }
# phase WHAT: when each step ended, seconds since stress_init (diagnostic)
phase() { echo "# [$(elapsed) s] $1"; }

# whole JSON documents so far from reader NAME (uct-stress json-tail)
docs() { set -- $(cat "$T/$1.count" 2> /dev/null); echo "${2:-0}"; }
# docs_wait NAME N: until reader NAME has N whole documents (at most 60 s)
docs_wait() {
	w=600
	while [ "$(docs "$1")" -lt "$2" ]; do
		[ $w -le 0 ] && return 1
		w=$((w - 1))
		usleep 100000
	done
}
# docs_wait_all N: N more documents from every JSON reader than now
# (N absolute when 1: the first)
docs_wait_all() {
	for j in $JSONS; do
		eval "_dw_$j=\$(docs $j)"
	done
	for j in $JSONS; do
		eval "_dw_n=\$_dw_$j"
		[ "$1" = 1 ] && _dw_n=0
		docs_wait $j $((_dw_n + $1)) || return 1
	done
}

# The streams go through fifos into filters that keep what the checks
# need (hundreds of documents of hundreds of rows would fill /tmp): the
# last JSON document and counts, the number of text frames.
readers_start() {
	rm -f "$T"/*.fifo
	mkfifo "$T/events.fifo"
	$ST json-tail "$T/events" < "$T/events.fifo" > "$T/events.tail" &
	EVENTST=$!
	if [ "$STRESS_LIGHT" != 1 ]; then
		mkfifo "$T/view.fifo" "$T/text.fifo"
		$ST json-tail "$T/view" < "$T/view.fifo" > "$T/view.tail" &
		VIEWT=$!
		grep -c '^NAME ' < "$T/text.fifo" > "$T/text.frames" &
		TEXTT=$!
		$UCT --json -d $READ_DELAY > "$T/view.fifo" 2> "$T/view.err" &
		VIEW=$!
		$UCT -b -d $READ_DELAY > "$T/text.fifo" 2> "$T/text.err" &
		TEXT=$!
	fi
	$UCT --json --events -d $READ_DELAY > "$T/events.fifo" 2> "$T/events.err" &
	EVENTS=$!
	rm -f "$PIN"
	bpftool iter pin "$ITER_OBJ" "$PIN" 2> "$T/pin.err" || { sed 's/^/# /' "$T/pin.err"; }
	$ST iter-read "$PIN" --pause-ms $ITER_PAUSE "$@" > "$T/iter.out" 2>&1 &
	ITER=$!
	what="live view (--json and -b, -d $READ_DELAY), --events, pinned iterator"
	[ "$STRESS_LIGHT" = 1 ] && what="--events (-d $READ_DELAY), pinned iterator"
	if docs_wait_all 1; then
		pass "readers attached: $what"
	else
		fail "readers attached: $what"
		for j in $JSONS; do sed "s/^/# $j: /" "$T/$j.err"; done
	fi
	phase "readers attached"
}

# Trace clock "mono" is CLOCK_MONOTONIC, as uct-stress iter-read's times
trace_start() {
	echo 0 > $TRC/tracing_on
	TRACE_CLOCK=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $TRC/trace_clock)
	TRACE_KB=$(cat $TRC/buffer_size_kb)
	echo mono > $TRC/trace_clock
	echo 4096 > $TRC/buffer_size_kb
	echo > $TRC/trace
	for e in ucounts_rlimit_refused ucounts_alloc ucounts_free; do
		echo "uid >= $1 && uid < $2" > $TRC/events/ucounts/$e/filter
		echo 1 > $TRC/events/ucounts/$e/enable
	done
	echo 1 > $TRC/tracing_on
}

trace_stop() {
	echo 0 > $TRC/tracing_on
	TRACE_OVERRUN=$(cat $TRC/per_cpu/cpu*/stats | awk '/^overrun:/ { s += $2 } END { print s + 0 }')
	grep ' ucounts_rlimit_refused: ' $TRC/trace > "$T/refused.trace"
	grep -E ' ucounts_(alloc|free): ' $TRC/trace > "$T/life.trace"
	for e in ucounts_rlimit_refused ucounts_alloc ucounts_free; do
		echo 0 > $TRC/events/ucounts/$e/enable
		echo 0 > $TRC/events/ucounts/$e/filter
	done
	echo > $TRC/trace
	echo "$TRACE_CLOCK" > $TRC/trace_clock
	echo "$TRACE_KB" > $TRC/buffer_size_kb
	echo 1 > $TRC/tracing_on
}

# tracer_start UID: `ucounttop trace --uid UID`, the fourth reader: every
# event of one uid through the ring buffer (drops are counted and reported
# on stderr at exit), stopped at the snapshot
tracer_start() {
	[ "$STRESS_LIGHT" = 1 ] && return 0
	$UCT trace --uid "$1" > "$T/rb.trace" 2> "$T/rb.err" &
	TRACER=$!
	w=600
	while ! grep -q '^TIME ' "$T/rb.trace" 2> /dev/null && [ $w -gt 0 ]; do
		w=$((w - 1))
		usleep 100000
	done
	grep -q '^TIME ' "$T/rb.trace" || fail "ucounttop trace --uid $1 attached"
}

tracer_stop() {
	[ -n "$TRACER" ] || return 0
	kill -INT $TRACER
	wait $TRACER
	TRACER_RC=$?
	TRACER=
	RB_DROPS=$(sed -n 's/^ucounttop: \([0-9]*\) events dropped.*/\1/p' "$T/rb.err")
	RB_DROPS=${RB_DROPS:-0}
	RB_MISSED=$(sed -n 's/^ucounttop: \([0-9]*\) events missed.*/\1/p' "$T/rb.err")
	RB_MISSED=${RB_MISSED:-0}
}

# ringbuf_counts: the trace's lines by kind, from the end of the line
# (COMM may hold blanks): RESULT alloc, free, uncharge, DENIED limit=...,
# or a charge's DELTA +N
ringbuf_counts() {
	awk 'NR > 1 { if ($NF == "alloc") a++; else if ($NF == "free") f++
		else if ($(NF - 1) == "DENIED" || $NF == "DENIED") d++
		else if ($NF == "uncharge") u++; else if ($(NF - 2) ~ /^\+/) c++; else o++ }
		END { printf "charges %d uncharges %d denied %d alloc %d free %d other %d\n", c, u, d, a, f, o }' "$T/rb.trace"
}

# ringbuf_check UID WANT: the trace's counts are WANT; when the ring buffer
# overflowed, the lines plus the drops ucounttop counted add up to WANT's;
# runs the kernel skipped (of any uid: the filter runs in the program)
# leave at most that many lines out
ringbuf_check() {
	[ "$STRESS_LIGHT" = 1 ] && return 0
	got=$(ringbuf_counts)
	echo "# ucounttop trace --uid $1: $got, ring buffer drops $RB_DROPS, recursion misses $RB_MISSED, exit $TRACER_RC"
	sum() { echo "$1" | awk '{ for (i = 2; i <= NF; i += 2) s += $i } END { print s + 0 }'; }
	if [ "$RB_DROPS" = 0 ] && [ "$RB_MISSED" = 0 ]; then
		expect "ucounttop trace --uid $1 (ring buffer): every event of the uid, none dropped, exit 0" \
			"$got exit $TRACER_RC" "$2 other 0 exit 0"
	elif [ "$RB_MISSED" = 0 ]; then
		expect "ucounttop trace --uid $1 (ring buffer): lines + $RB_DROPS dropped (counted) = every event of the uid, exit 0" \
			"$(($(sum "$got") + RB_DROPS)) exit $TRACER_RC" "$(sum "$2") exit 0"
	else
		n=$(($(sum "$got") + RB_DROPS)) w=$(sum "$2")
		expect "ucounttop trace --uid $1 (ring buffer): lines + $RB_DROPS dropped <= every event of the uid <= that + $RB_MISSED missed (counted), exit 0" \
			"$([ "$n" -le "$w" ] && [ "$w" -le $((n + RB_MISSED)) ] && echo within) exit $TRACER_RC" "within exit 0"
	fi
}
# json_sums UID: charges and uncharges of every type at the rows of UID in
# the --events JSON ("C U")
json_sums() {
	awk -v u="$1" '$1 == "ROW" && $4 == u { for (t = 0; t < 4; t++) { c += $(13 + t * 8); u2 += $(14 + t * 8) } }
		END { print c + 0, u2 + 0 }' "$T/events.flat"
}

# workload_start ARGS: the workload under `ucounttop check`, holding its
# state after READY until workload_release
workload_start() {
	WL=$T/wl.out
	if [ "$STRESS_LIGHT" = 1 ]; then
		$ST "$@" --hold 300 > "$WL" 2> "$T/wl.err" &
	else
		$UCT check --json -o "$T/check.json" $CHECK_OPTS -- $ST "$@" --hold 300 > "$WL" 2> "$T/wl.err" &
	fi
	CHECK=$!
	T_START=$(date +%s)
}

# the iterator's (ns, uid) keys of uids LO..HI-1, and the workload's
iter_keys() {
	cat "$PIN" | awk -v lo="$1" -v hi="$2" 'NR > 1 && $3 >= lo && $3 < hi { print $1, $3 }' | sort
}
expect_keys() { awk '$1 == "EXPECT" { print $2, $4 }' "$WL" | sort; }

# workload_ready LO HI: READY, then (bounded) until the iterator's rows of
# uids LO..HI-1 are exactly the workload's: transient ones (namespaces and
# processes it made and dropped) freed
workload_ready() {
	w=3000
	while ! grep -qE '^(READY|ERROR)' "$WL" 2>/dev/null; do
		if [ $w -le 0 ] || ! kill -0 $CHECK 2>/dev/null; then
			break
		fi
		w=$((w - 1))
		usleep 100000
	done
	T_READY=$(date +%s)
	phase "workload ready"
	if ! grep -q '^READY' "$WL"; then
		fail "workload ready"
		sed 's/^/# wl: /' "$WL" "$T/wl.err" | grep -v -e '^# wl: EXPECT' -e '^# wl: OPS'
		return 1
	fi
	w=300
	while [ "$(iter_keys "$1" "$2")" != "$(expect_keys)" ] && [ $w -gt 0 ]; do
		w=$((w - 1))
		usleep 100000
	done
	phase "transient rows gone"
	expect "iterator: the rows of uids $1..$(($2 - 1)) are the workload's $(expect_keys | wc -l | tr -d ' ') (transient ones freed)" \
		"$(iter_keys "$1" "$2" | awk '{ print $1 ":" $2 }' | tr '\n' ' ')" \
		"$(expect_keys | awk '{ print $1 ":" $2 }' | tr '\n' ' ')"
	WLPID=$(sed -n 's/^PID //p' "$WL")
	return 0
}

# snapshot: the pinned iterator and, taken after it, two new documents of
# each ucounttop (the workload's rows do not change while it holds)
snapshot() {
	iter_stop
	tracer_stop
	cat "$PIN" > "$T/iter.table"
	# each reader's skipped runs before its next documents, which must
	# report at least these, and after them, which they cannot exceed
	for j in $JSONS; do
		eval "MISSES_BEFORE_$j=\$(misses_of \$(reader_pid $j))"
	done
	docs_wait_all 2 || fail "two new JSON documents from each ucounttop"
	for j in $JSONS; do
		$ST json-rows "$T/$j.last" > "$T/$j.flat"
		eval "MISSES_AFTER_$j=\$(misses_of \$(reader_pid $j))"
	done
	trace_stop
	phase "snapshot taken"
}

stat_of() { sed -n "s/^STAT $1 //p" "$WL"; }

# Flat tables "ns uid level nproc msgqueue sigpending memlock"
expected_values() { awk '$1 == "EXPECT" { print $2, $4, $3, $5, $6, $7, $8 }' "$WL"; }
iter_values() { awk 'NR > 1 { print $1, $3, $2, $5, $6, $7, $8 }' "$T/iter.table"; }
# json flat: ROW ns level uid pns puid refcount flags, then per type 8
# fields from column 9: value child_sum denials limit_hits charges
# uncharges charged uncharged
json_values() { awk '$1 == "ROW" { print $2, $4, $3, $9, $17, $25, $33 }' "$T/$1.flat"; }

# rows_diff WANT-FILE GOT-FILE: the wanted (ns, uid) rows that differ
rows_diff() {
	awk 'NR == FNR { want[$1 " " $2] = $0; next }
	     ($1 " " $2) in want { got[$1 " " $2] = $0 }
	     END { for (k in want)
			if (!(k in got)) print "missing: " want[k]
			else if (got[k] != want[k]) print "got " got[k] " want " want[k] }' "$1" "$2" | sort
}

# counts_off KEYS WANT GOT: how far GOT's counts are from WANT's, in all
# (the rows keyed by their first KEYS fields, the counts after them,
# absolute differences summed); "missing" when a row of WANT is not in GOT
counts_off() {
	awk -v keys="$1" '
	function key(line,   f, i, k) { split(line, f); k = f[1]; for (i = 2; i <= keys; i++) k = k " " f[i]; return k }
	NR == FNR { want[key($0)] = $0; next }
	key($0) in want { got[key($0)] = $0 }
	END { for (k in want) {
			if (!(k in got)) { missing = 1; continue }
			nw = split(want[k], w); split(got[k], g)
			for (i = keys + 1; i <= nw; i++) off += w[i] > g[i] ? w[i] - g[i] : g[i] - w[i]
		}
		print missing ? "missing" : off + 0 }' "$2" "$3"
}

# expect_counts NAME KEYS WANT GOT MISSES: GOT = WANT, row for row (rows
# keyed by their first KEYS fields); or, where the kernel skipped runs of
# the view's programs MISSES times (recursion misses: 7.3 runs a
# tracepoint's BPF program preemptible, under rcu_read_lock_dont_migrate()
# in __bpf_trace_run(), and another task entering it on that CPU
# meanwhile is skipped and counted), off by at most that many events,
# each a charge or an uncharge not counted
expect_counts() {
	local off
	off=$(counts_off "$2" "$3" "$4")
	if [ "$off" = 0 ] || [ "${5:-0}" = 0 ]; then
		expect "$1" "$off" 0
		# the rows that differ (busybox diff is unified: - want, + got)
		[ "$off" = 0 ] || diff "$3" "$4" | sed -n '/^[-+][^-+]/s/^/#  /p' | head -n 20
		return
	fi
	echo "# $1: off by $off, with $5 runs of the view's programs skipped by the kernel"
	expect "$1 (off by $off <= $5 skipped runs)" \
		"$([ "$off" != missing ] && [ "$off" -le "$5" ] && echo within)" within
}

# Per workload row and type: what the namespaces it created hold (from the
# iterator and the workload's NS lines), i.e. value - own charges
# -> "ns uid t0 t1 t2 t3" (value - child sum)
own_values() {
	awk 'FILENAME == ARGV[1] && $1 == "NS" { parent[$2] = $4; creator[$2] = $5; next }
	     FILENAME == ARGV[1] && $1 == "EXPECT" { want[$2 " " $4] = 1; next }
	     FILENAME == ARGV[2] && FNR > 1 {
		k = $1 " " $3
		for (t = 0; t < 4; t++) v[k, t] = $(5 + t)
		if ($1 in parent)
			for (t = 0; t < 4; t++) cs[parent[$1] " " creator[$1], t] += $(5 + t)
		seen[k] = 1 }
	     END { for (k in want) if (k in seen)
			print k, v[k, 0] - cs[k, 0], v[k, 1] - cs[k, 1], v[k, 2] - cs[k, 2], v[k, 3] - cs[k, 3] }' \
		"$WL" "$T/iter.table" | sort
}
# the --events JSON's own net per row: charged - uncharged ("-": 0)
events_net() {
	awk '$1 == "ROW" { printf "%s %s", $2, $4
		for (t = 0; t < 4; t++) { c = $(9 + t * 8 + 6); u = $(9 + t * 8 + 7)
			printf " %d", (c == "-" ? 0 : c) - (u == "-" ? 0 : u) }
		print "" }' "$T/events.flat"
}

# json_join FIELD KEYS NAME: for every "ns uid type ..." line of file
# KEYS, "ns uid type N" with N that field (2 denials, 3 limit_hits) of
# that row and type in JSON NAME ("-": no such row)
json_join() {
	awk -v f="$1" 'BEGIN { ti["nproc"] = 0; ti["msgqueue"] = 1; ti["sigpending"] = 2; ti["memlock"] = 3 }
	     NR == FNR { if ($1 == "ROW") for (t = 0; t < 4; t++) v[$2 " " $4, t] = $(9 + t * 8 + f); next }
	     { k = $1 " " $2; print k, $3, ((k, ti[$3]) in v ? v[k, ti[$3]] : "-") }' "$T/$3.flat" "$2"
}

# denials_of NAME: "ns uid type n" of the DENY rows in JSON NAME
denials_of() { json_join 2 "$T/want.denials" "$1"; }
expected_denials() { awk '$1 == "DENY" { print $2, $3, $4, $5 }' "$WL"; }

# The refusal events, as the row over its limit: level L is the row of
# level L up the charged row's chain, the charged row itself when L is its
# own level (workload NS lines; the initial namespace is level 0) ->
# "ns uid type hits"
trace_hits() {
	awk -v init="$INIT_NS" '
	FILENAME == ARGV[1] { if ($1 == "NS") { lvl[$2] = $3; parent[$2] = $4; creator[$2] = $5 }; next }
	{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	  ns = f["ns"]; uid = f["uid"]; l = f["level"] + 0
	  if (l >= 0) while (ns != init && (ns in lvl) && lvl[ns] > l) { uid = creator[ns]; ns = parent[ns] }
	  hits[ns " " uid " " f["type"]]++ }
	END { for (k in hits) print k, hits[k] }' "$WL" "$T/refused.trace" | sort
}
# limit_hits_of NAME: the same keys, from JSON NAME
limit_hits_of() { json_join 3 "$T/trace.hits" "$1"; }

# compare_all LO HI: every count of the snapshot
compare_all() {
	lo=$1
	hi=$2
	expected_values | sort > "$T/want.values"
	n_rows=$(wc -l < "$T/want.values" | tr -d ' ')
	iter_values | sort > "$T/iter.values"
	expect "iterator = workload: $n_rows rows x 4 counters" "$(rows_diff "$T/want.values" "$T/iter.values")" ""
	for j in $JSONS; do
		json_values $j | sort > "$T/$j.values"
		expect "$j JSON = workload: $n_rows rows x 4 counters" \
			"$(rows_diff "$T/want.values" "$T/$j.values")" ""
	done
	# BPF side: every charge and uncharge seen per row (the leaf of its
	# walk), against the kernel's counters the iterator read
	own_values > "$T/own.values"
	events_net | sort > "$T/net.values"
	VIEW_MISSES=$(view_misses)
	expect_counts "--events: per row and type, charged - uncharged = counter - its namespaces' rows ($n_rows rows)" \
		2 "$T/own.values" "$T/net.values" "$VIEW_MISSES"
	expected_denials | sort > "$T/want.denials"
	n_deny=$(awk '{ s += $4 } END { print s + 0 }' "$T/want.denials")
	for j in $JSONS; do
		denials_of $j | sort > "$T/$j.denials"
		expect_counts "$j JSON denials = the workload's $n_deny refused requests, per row" \
			3 "$T/want.denials" "$T/$j.denials" "$VIEW_MISSES"
	done
	iter_verdict
	if [ -f "$T/refused.trace" ]; then
		n_ev=$(wc -l < "$T/refused.trace" | tr -d ' ')
		expect "ucounts_rlimit_refused events = refused requests ($n_deny), trace overruns 0" \
			"$n_ev $TRACE_OVERRUN" "$n_deny 0"
		expect "refusal events per charged row = the workload's per row" \
			"$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
				n[f["ns"] " " f["uid"] " " f["type"]]++ }
				END { for (k in n) print k, n[k] }' "$T/refused.trace" | sort)" \
			"$(awk '$4 > 0' "$T/want.denials")"
		trace_hits > "$T/trace.hits"
		echo "# refusals by the level over its limit: $(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^level=/) print $i }' "$T/refused.trace" | sort | uniq -c | awk '{ printf "%s %s, ", $2, $1 }')"
		for j in $JSONS; do
			limit_hits_of $j > "$T/$j.hits"
			expect_counts "$j JSON limit_hits = refusal events by the row over its limit ($(wc -l < "$T/trace.hits" | tr -d ' ') rows)" \
				3 "$T/trace.hits" "$T/$j.hits" "$VIEW_MISSES"
			echo "ALL $n_ev" > "$T/want.sum"
			awk -v lo="$lo" -v hi="$hi" '$1 == "ROW" && $4 >= lo && $4 < hi {
				for (t = 0; t < 4; t++) s += $(9 + t * 8 + 3) } END { print "ALL", s + 0 }' \
				"$T/$j.flat" > "$T/$j.sum"
			expect_counts "$j JSON: limit_hits of all rows of uids $lo..$((hi - 1)) add up to the $n_ev refusal events" \
				1 "$T/want.sum" "$T/$j.sum" "$VIEW_MISSES"
		done
	fi
	for j in $JSONS; do
		set -- $(grep '^COUNTERS' "$T/$j.flat")
		echo "# $j counters: stats_full $2 ringbuf_drops $3 dedup_full $4 chain_cut $5 events $6 duplicates $7 stats_unmatched $8 recursion_misses $9"
		expect "$j: nothing dropped (stats_full ringbuf_drops dedup_full chain_cut)" "$2 $3 $4 $5" "0 0 0 0"
		# a run the kernel skipped is reported: recursion_misses is
		# what the kernel counted for this reader's own programs
		# between just before this document and just after it
		eval "m_lo=\$MISSES_BEFORE_$j m_hi=\$MISSES_AFTER_$j"
		expect "$j: recursion_misses reports its programs' skipped runs ($m_lo <= $9 <= $m_hi)" \
			"$([ "$9" -ge "$m_lo" ] && [ "$9" -le "$m_hi" ] && echo yes)" yes
		expect "$j: no imbalanced or over_limit flag on the workload's rows" \
			"$(awk 'NR == FNR { want[$1 " " $2] = 1; next }
				$1 == "ROW" && ($2 " " $4) in want && $8 ~ /imbalanced|over_limit/ { print $2, $4, $8 }' \
				"$T/want.values" "$T/$j.flat")" ""
	done
}

# prog_misses: "name=N ..." of every loaded program whose runs the
# kernel skipped because it was already running on that CPU (its
# recursion guard; bpftool prints recursion_misses only when non-zero)
# view_misses: the runs of the view's programs (not check's ck_*) the
# kernel skipped so far, summed
view_misses() {
	prog_misses | tr ' ' '\n' | awk -F= '$1 !~ /^ck_/ { s += $2 } END { print s + 0 }'
}

# reader_pid NAME: the ucounttop behind JSON reader NAME
reader_pid() { case $1 in view) echo "$VIEW" ;; events) echo "$EVENTS" ;; esac; }

# misses_of PID: the skipped runs of the programs process PID holds (the
# prog_id of its program and link descriptors), summed
misses_of() {
	for id in $(sed -n 's/^prog_id:[[:space:]]*//p' /proc/"$1"/fdinfo/* 2> /dev/null | sort -u); do
		bpftool prog show id "$id" 2> /dev/null
	done | awk '/^[0-9]+: / { for (i = 1; i < NF; i++) if ($i == "recursion_misses") s += $(i + 1) }
		END { print s + 0 }'
}

prog_misses() {
	bpftool prog show 2> /dev/null | awk '/^[0-9]+: / {
		n = ""; m = 0
		for (i = 1; i < NF; i++) { if ($i == "name") n = $(i + 1); if ($i == "recursion_misses") m = $(i + 1) }
		if (m) printf "%s%s=%s", k++ ? " " : "", n, m }
		END { print "" }'
}

# workload_release LO HI: end the hold, check's verdict, rows gone, readers
# stopped
workload_release() {
	# diagnostic: what the kernel skipped so far (check's programs are ck_*)
	echo "# recursion misses at the hold (bpftool prog show): $(prog_misses)"
	kill -USR1 "$WLPID" 2>/dev/null
	wait $CHECK
	rc=$?
	T_DONE=$(date +%s)
	phase "check done"
	expect "workload released everything it held" "$(grep -cE '^(RELEASED|HOLD-TIMEOUT)$' "$WL") $(grep -c '^HOLD-TIMEOUT' "$WL")" "1 0"
	if [ "$STRESS_LIGHT" = 1 ]; then
		expect "the workload exited 0" "$rc" 0
	else
		check_verdict $rc
	fi
	w=300
	while [ -n "$(iter_keys "$1" "$2")" ] && [ $w -gt 0 ]; do
		w=$((w - 1))
		usleep 100000
	done
	phase "rows gone"
	expect "iterator: no row of uids $1..$(($2 - 1)) after teardown (back to baseline)" "$(iter_keys "$1" "$2")" ""
	docs_wait_all 2
	for j in $JSONS; do
		$ST json-rows "$T/$j.last" > "$T/$j.end"
		expect "$j JSON: no row of uids $1..$(($2 - 1)) after teardown" \
			"$(awk -v lo="$1" -v hi="$2" '$1 == "ROW" && $4 >= lo && $4 < hi { print $2, $4 }' "$T/$j.end")" ""
	done
	readers_stop
}

# check_verdict RC: ucounttop check around the workload found nothing
check_verdict() {
	J=$T/check.json
	if [ -s "$J" ]; then
		echo "# check: $(sed -n 's/.*"result":"\([a-z]*\)".*/\1/p' "$J"), exit $1; stats $(sed -n 's/.*"stats":{\([^}]*\)}.*/\1/p' "$J" | tr -d '"')"
		echo "# check counters: $(sed -n 's/.*"counters":{\([^}]*\)}.*/\1/p' "$J" | tr -d '"')"
		echo "# check missed (runs the kernel skipped, by kind): $(sed -n 's/.*"missed":{\([^}]*\)}.*/\1/p' "$J" | tr -d '"')"
		sed -n 's/.*"classes":{\(.*\)},"stats".*/\1/p' "$J" | sed 's/},"/}\n"/g' |
			grep -e '"checked":false' -e '"findings":[1-9]' | sed 's/^/# class: /'
		sed -n 's/.*"notes":\[\(.*\)\],"findings".*/\1/p' "$J" | sed 's/","/"\n"/g' | grep . | sed 's/^/# check note: /'
	fi
	# Every charge's stack is kept: check indexes stacks itself in a table
	# of 16,384 that a run's few dozen stacks cannot fill, so a stack
	# error here is a defect of check.
	expect "ucounttop check: nothing dropped or cut (its *_full, chain_cut and stack_errors counters)" \
		"$(sed -n 's/.*"counters":{\([^}]*\)}.*/\1/p' "$J" | tr ',' '\n' | tr -d '"' |
			grep -E '_full|chain_cut|stack_errors' | grep -v ':0$')" ""
	# inv_truncated is not a loss either: check walks each task's signal
	# lists without the task's lock, and a task exiting meanwhile unlinks
	# the entries under it (list_del_init), so the walk cannot get back to
	# the head. It happens in some runs of the churn and not others: what
	# is asserted is that check then says so and judges nothing from it.
	trunc=$(sed -n 's/.*"inv_truncated":\([0-9]*\).*/\1/p' "$J")
	echo "# check: signal lists cut by a concurrent change (inv_truncated): ${trunc:-?}"
	expect "ucounttop check: a note says the inventory was incomplete if and only if inv_truncated > 0" \
		"$([ "${trunc:-0}" -gt 0 ] && echo cut || echo whole) $(grep -c 'inventory incomplete' "$J")" \
		"$([ "${trunc:-0}" -gt 0 ] && echo 'cut 1' || echo 'whole 0')"
	expect "ucounttop check around the workload: exit 0, clean, no failing class" \
		"$1 $(grep -c '"result":"clean","exit_code":0,' "$J" 2>/dev/null) $(grep -o '"failing":true' "$J" 2>/dev/null | wc -l | tr -d ' ')" "0 1 0"
	if [ "$(grep -o '"failing":true' "$J" 2>/dev/null | wc -l)" -gt 0 ]; then
		sed 's/,{"class":/\n{"class":/g; s/"findings":\[{"class":/\n{"class":/' "$J" |
			grep '^{"class":' | sed 's/,"stacks":.*//; s/^/# finding: /' | head -n 20
		cp "$J" /tmp/"$NAME"-check-failed.json
	fi
	[ "$(sed -n 's/.*"command":{[^}]*"exit_status":\([0-9a-z]*\).*/\1/p' "$J")" = 0 ] ||
		fail "the workload under check exited 0 (got $(sed -n 's/.*"exit_status":\([0-9a-z]*\).*/\1/p' "$J"))"
}

# stop the iterator reader once (its pid may be reused after the wait)
iter_stop() {
	[ -n "$ITER" ] || return 0
	kill -TERM $ITER
	wait $ITER
	ITER=
}

readers_stop() {
	iter_stop
	tracer_stop
	if [ "$STRESS_LIGHT" = 1 ]; then
		kill -INT $EVENTS
		wait $EVENTS
		re=$?
		wait $EVENTST
		expect "the ucounttop reader exits 0 on SIGINT (--events)" "$re" 0
	else
		kill -INT $VIEW $TEXT $EVENTS
		wait $VIEW
		rv=$?
		wait $TEXT
		rt=$?
		wait $EVENTS
		re=$?
		wait $VIEWT $TEXTT $EVENTST
		expect "the three ucounttop readers exit 0 on SIGINT (--json, -b, --events)" "$rv $rt $re" "0 0 0"
		frames=$(cat "$T/text.frames")
		echo "# text view: $frames frames"
		expect "text view (-b): frames printed, nothing on stderr" \
			"$([ "${frames:-0}" -gt 0 ] && echo yes) $(wc -c < "$T/text.err" | tr -d ' ')" "yes 0"
	fi
	for j in $JSONS; do
		# docs N bad B imbalanced I bytes_max M
		set -- $(cat "$T/$j.tail")
		echo "# $j: $2 documents (up to $8 bytes), $6 of them with a transient imbalanced flag somewhere (rows read at slightly different times)"
		expect "$j: every line a whole document, numbered 1..$2" "$4" 0
	done
	rm -f "$PIN"
}

# iter_stat KEY: from the iterator reader's summary line
iter_stat() { sed -n "s/^ITER.* $1 \([0-9]*\).*/\1/p" "$T/iter.out"; }

# The iterator reader's passes: well formed, and every (ns, uid) shown
# twice in a pass explained: the ucounts shown first was freed and a new
# one of the same pair allocated during that pass (the namespace's inode
# number reused), which the iterator's contract allows - only a ucounts
# hashed during the whole walk is shown exactly once.
iter_verdict() {
	echo "# pinned iterator: $(grep '^ITER' "$T/iter.out")"
	expect "pinned iterator: every pass had the header first, well-formed rows, no read error" \
		"$(iter_stat malformed) $(iter_stat bad_header) $(iter_stat errors)" "0 0 0"
	[ "$(iter_stat reads)" -gt 0 ] || fail "pinned iterator read at least once"
	grep '^DUP' "$T/iter.out" | while read -r _ t0 t1 ns uid; do
		awk -v t0="$t0" -v t1="$t1" -v ns="ns=$ns" -v uid="uid=$uid" '
			{ ts = ""; hit = 0
			  for (i = 1; i <= NF; i++) {
				if ($i ~ /^[0-9]+\.[0-9]+:$/) ts = substr($i, 1, length($i) - 1) + 0
				if ($i == ns) hit++
				if ($i == uid) hit++ }
			  if (hit < 2 || ts < t0 || ts > t1) next
			  if ($0 ~ / ucounts_free: /) freed = 1
			  else if (freed) realloc = 1 }
			END { if (!realloc) print "ns " substr(ns, 4) " uid " substr(uid, 5) " twice in the pass of " t0 "-" t1 " s, not freed and allocated again during it" }' \
			"$T/life.trace"
	done > "$T/dups.unexplained"
	echo "# pinned iterator: $(iter_stat duplicates) (ns, uid) pairs seen twice in a pass ($(iter_stat duplicates_init_ns) in the initial namespace), $(($(iter_stat duplicates) - $(wc -l < "$T/dups.unexplained"))) of them explained by the trace; trace overruns $TRACE_OVERRUN"
	expect "pinned iterator: a pair shown twice in a pass only as two ucounts (freed and allocated again during it), trace complete" \
		"$(cat "$T/dups.unexplained") $TRACE_OVERRUN" " 0"
	grep -q '^DUP' "$T/iter.out" && [ "$(grep -c '^DUP' "$T/iter.out")" -lt "$(iter_stat duplicates)" ] &&
		echo "# (only the first 100 duplicates were listed and checked)"
}

# summary WHAT: one line with the numbers of the part, for quoting
summary() {
	if [ "$STRESS_LIGHT" = 1 ]; then
		echo "# summary (light): $*; rows compared $(wc -l < "$T/want.values" | tr -d ' '); drops: events $(awk '$1 == "COUNTERS" { print $2 + $3 + $4 + $5 + $9 }' "$T/events.flat"), trace overruns $TRACE_OVERRUN; iterator passes $(iter_stat reads); JSON documents $(docs events)"
		return
	fi
	echo "# summary: $*; rows compared $(wc -l < "$T/want.values" | tr -d ' '); drops: view $(awk '$1 == "COUNTERS" { print $2 + $3 + $4 + $5 + $9 }' "$T/view.flat"), events $(awk '$1 == "COUNTERS" { print $2 + $3 + $4 + $5 + $9 }' "$T/events.flat"), trace overruns $TRACE_OVERRUN; check $(sed -n 's/.*"result":"\([a-z]*\)".*/\1/p' "$T/check.json") ($(sed -n 's/.*"counters":{"events":\([0-9]*\),.*/\1/p' "$T/check.json") events, $(sed -n 's/.*"recursion_misses":\([0-9]*\)},"missed".*/\1/p' "$T/check.json") skipped by the kernel); iterator passes $(iter_stat reads); JSON documents $(docs view)/$(docs events)"
}

# times, as a bound check: printed, never asserted
times_note() {
	echo "# time: setup + workload to READY $((T_READY - T_START)) s, hold + teardown + check $((T_DONE - T_READY)) s, test $(elapsed) s"
}

# The workload never became ready: stop what the part started.
part_abandon() {
	trace_stop
	kill -USR1 "$(sed -n 's/^PID //p' "$WL")" 2> /dev/null
	wait $CHECK
	readers_stop
}

# The last lines of every part: its times, the plan, its verdict.
part_end() {
	times_note
	echo "1..$n"
	[ "$fails" -eq 0 ]
}
