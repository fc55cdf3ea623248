#!/bin/sh
# Stress (c), SMP: real-time signal floods across user namespaces
# (uct-stress signals). 8 receivers of one uid, each in a namespace of its
# own created with RLIMIT_SIGPENDING 320 (its rlimit_max: the limit of the
# initial namespace's row, shared by all 8) and running with 16, 24, ... 72
# (the leaf limits, 352 in all), block SIGRTMIN; 32 senders of the same uid, each in a namespace
# of its own, sigqueue() 16 signals to every receiver, all at once: 4096
# requests, refused with EAGAIN either at a receiver's own limit (the
# event's level is the receiver's own, ns_level) or at the shared row
# (level 0). Queued signals are the counters (and SigQ in
# /proc/PID/status), refusals are DENY and ucounts_rlimit_refused events on
# the receiver's row, the limits held, and --events counted exactly queued
# + refused-at-the-leaf charges and refused-at-the-leaf uncharges per
# receiver (a namespace-level refusal is never charged). All under
# `ucounttop check`. KTAP. The debug boot has 8 senders (1024 requests).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/stress.sh
U=$((0x70200000))
NR=8
NS=${STRESS_SIGNAL_SENDERS:-32}
PER=16
LEVEL=320

stress_init 72-stress-signals
trace_start $U $((U + 1))
readers_start
tracer_start $U
workload_start signals --uid $U --receivers $NR --senders $NS --per $PER --leaf 16 --leaf-step 8 --level $LEVEL
if workload_ready $U $((U + 1)); then
	snapshot
	att=$(stat_of attempts) q=$(stat_of queued) ref=$(stat_of refused)
	echo "# signal flood: $NS senders x $NR receivers x $PER = $att sigqueue(), $q queued, $ref refused"
	expect "workload: $((NS * NR * PER)) requests, each queued or refused" "$att $((q + ref))" "$((NS * NR * PER)) $att"
	expect "kernel limits held: each receiver at most its RLIMIT_SIGPENDING, $LEVEL at the initial namespace's row" \
		"$(awk -v level=$LEVEL '$1 == "LIMIT" { lim[$2] = $4 }
			$1 == "EXPECT" && (($3 == 1 && $7 > lim[$2]) || ($3 == 0 && $7 > level))' "$WL")" ""
	expect "SigQ: of every receiver = its queued signals" \
		"$(awk '$1 == "PROC" { print $2, $3 }' "$WL" | while read -r pid ns; do
			echo "$ns $(sed -n 's/^SigQ:[[:space:]]*\([0-9]*\)\/.*/\1/p' /proc/$pid/status)"; done | sort)" \
		"$(awk '$1 == "EXPECT" && $3 == 1 { print $2, $7 }' "$WL" | sort)"
	compare_all $U $((U + 1))
	phase "compared"
	# exact BPF-side counts per receiver row: sigpending charges = queued +
	# refused at its own limit, uncharges = refused at its own limit
	awk 'NR == FNR { if ($1 == "EXPECT" && $3 == 1) q[$2] = $7; next }
	     { for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	       if (f["level"] == f["ns_level"]) leaf[f["ns"]]++ }
	     END { for (ns in q) print ns, q[ns] + leaf[ns], leaf[ns] + 0 }' "$WL" "$T/refused.trace" | sort > "$T/want.charges"
	awk -v u=$U -v init="$INIT_NS" '$1 == "ROW" && $4 == u && $2 != init { print $2, $29, $30 }' "$T/events.flat" | sort > "$T/got.charges"
	expect "--events: sigpending charges = queued + refused at the receiver's limit, uncharges = refused there, per receiver" \
		"$(rows_diff "$T/want.charges" "$T/got.charges")" ""
	# the ring buffer: what --events counted at the uid's live rows, plus
	# each sender's namespace row (gone): its unshare's charge, its exit's
	# uncharge, alloc and free; a line per refusal
	set -- $(json_sums $U)
	ringbuf_check $U "charges $(($1 + NS)) uncharges $(($2 + NS)) denied $ref alloc $((1 + NR + NS)) free $NS"
	workload_release $U $((U + 1))
	summary "part c: $att sigqueue() from $NS namespaces into $NR, $q queued, $ref refused ($(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^level=/) print $i }' "$T/refused.trace" | sort | uniq -c | awk '{ printf "%s%s x%s", n++ ? ", " : "", $2, $1 }')) = DENY in both JSONs = refusal events"
else
	part_abandon
fi
part_end
