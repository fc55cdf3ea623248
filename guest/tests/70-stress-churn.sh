#!/bin/sh
# Stress (a), SMP: 10,000 user namespaces created and destroyed by 4
# workers (uct-stress churn) while ucounttop's live view (-b --json -d 0.2),
# ucounttop --events and the pinned ucounts iterator (uct-stress iter-read,
# 37 bytes per read) all read concurrently, and all of it under
# `ucounttop check`. 64 holder processes keep (initial ns, uid) alive for
# the 64 uids the namespaces are made by, so that the BPF side's counts of
# them survive: every namespace charges its (initial ns, uid) row once
# (setresuid) and uncharges it once (unshare moves the charge into the new
# namespace), so --events must count ops+1 charges and ops uncharges there,
# per uid. The iterator must show all 64 held rows in every pass once it
# has shown them. Counts only; times are printed as a bound check. KTAP.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/stress.sh
U=$((0x70000000))
NU=64
OPS=${STRESS_CHURN_OPS:-10000}
# 10,000 namespaces make ~20,000 keyed rows and stacks for check's maps
CHECK_OPTS="--max-entries 65536"

stress_init 70-stress-churn
trace_start $U $((U + NU))
readers_start --held-uid $U --held $NU
tracer_start $U
workload_start churn --uid $U --uids $NU --ops $OPS --workers 4
if workload_ready $U $((U + NU)); then
	snapshot
	echo "# churn: $(stat_of ops) user namespaces created and destroyed by 4 workers ($(stat_of failed) failed), 64 uids"
	expect "workload: $OPS namespaces created and destroyed, none failed" \
		"$(stat_of ops) $(stat_of failed)" "$OPS 0"
	compare_all $U $((U + NU))
	phase "compared"
	# charges / uncharges at each (initial ns, uid): holder + one per namespace
	awk -v init="$INIT_NS" '$1 == "OPS" { print init, $2, $3 + 1, $3 }' "$WL" | sort > "$T/want.charges"
	awk -v init="$INIT_NS" '$1 == "ROW" && $2 == init { print $2, $4, $13, $14 }' "$T/events.flat" | sort > "$T/got.charges"
	expect_counts "--events: nproc charges = namespaces + 1 and uncharges = namespaces at each of the $NU (initial ns, uid) rows" \
		2 "$T/want.charges" "$T/got.charges" "$VIEW_MISSES"
	echo "# --events: $(awk 'NR == FNR { w[$2] = 1; next } ($2 in w) { c += $3; u += $4 } END { print c + 0 " charges, " u + 0 " uncharges" }' "$T/want.charges" "$T/got.charges") counted at the $NU rows (want $((OPS + NU)), $OPS)"
	echo "# pinned iterator: $(iter_stat reads) passes during the churn, $(iter_stat rows_max) rows at most, all $NU held rows in $(iter_stat held_full) passes"
	expect "pinned iterator: once all $NU held rows were shown, every later pass showed them all" \
		"$(iter_stat held_lost)" 0
	[ "$(iter_stat held_full)" -gt 0 ] || fail "pinned iterator: a pass showed all $NU held rows"
	# the ring buffer, for the first uid: per namespace a charge and an
	# uncharge at (init ns, uid) and at (new ns, uid), an alloc and a free
	# of (new ns, uid); the holder's alloc and charge of (init ns, uid)
	n0=$(awk -v u=$U '$1 == "OPS" && $2 == u { print $3 }' "$WL")
	ringbuf_check $U "charges $((2 * n0 + 1)) uncharges $((2 * n0)) denied 0 alloc $((n0 + 1)) free $n0"
	workload_release $U $((U + NU))
	summary "part a: $(stat_of ops) namespaces by 4 workers; --events $(awk 'NR == FNR { w[$2] = 1; next } ($2 in w) { c += $3; u += $4 } END { print c + 0 " charges, " u + 0 " uncharges" }' "$T/want.charges" "$T/got.charges") at $NU held rows"
else
	part_abandon
fi
part_end
