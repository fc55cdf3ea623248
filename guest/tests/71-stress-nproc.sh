#!/bin/sh
# Stress (b), SMP: RLIMIT_NPROC storms in 64 sibling user namespaces, all
# created by one uid (uct-stress nproc): each namespace's creator lowers its
# own RLIMIT_NPROC to 8 (the leaf limit) after creating it with 320 (its
# rlimit_max, the limit of the initial namespace's row of that uid, which
# all 64 share), and then it and 3 stormers fork until a fork is refused,
# and try 2 more, in all 64 namespaces at once. Which namespace wins is a
# race; the counts are not: every fork refused on the workload's side is
# one DENY in the live view and in --events, and one ucounts_rlimit_refused
# event, on its row; admitted forks are the counters; the kernel's limits
# held (at most 8 per namespace, 320 in all); and --events counted exactly
# admitted + refused + 1 charges and refused uncharges per namespace. All
# under `ucounttop check`. KTAP. The debug boot scales it down (16
# namespaces, 80 at the initial namespace's row). At either scale the
# namespaces together want more than the initial namespace's row allows,
# so refusals there are certain; whether some namespace reaches its own
# leaf limit first is a race (0 to 252 leaf refusals seen), not asserted.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/stress.sh
U=$((0x70100000))
NNS=${STRESS_NPROC_NS:-64}
LEAF=8
LEVEL=${STRESS_NPROC_LEVEL:-320}

stress_init 71-stress-nproc
trace_start $U $((U + 1))
readers_start
tracer_start $U
workload_start nproc --uid $U --ns $NNS --leaf $LEAF --level $LEVEL --stormers 3 --extra 2
if workload_ready $U $((U + 1)); then
	snapshot
	att=$(stat_of attempts) adm=$(stat_of admitted) ref=$(stat_of refused)
	echo "# nproc storm: $NNS namespaces, $att forks tried, $adm admitted, $ref refused"
	expect "workload: every fork admitted or refused (attempts = admitted + refused)" "$att" "$((adm + ref))"
	expect "workload: every namespace's storm ended in a refusal" \
		"$(awk '$1 == "STORM" && $5 < 1' "$WL")" ""
	expect "kernel limits held: at most $LEAF processes per namespace, $LEVEL at the initial namespace's row" \
		"$(awk -v leaf=$LEAF -v level=$LEVEL '$1 == "EXPECT" && (($3 == 1 && $5 > leaf) || ($3 == 0 && $5 > level))' "$WL")" ""
	compare_all $U $((U + 1))
	phase "compared"
	# exact BPF-side counts: (ns, uid) charged by the creator's unshare and
	# every fork tried, uncharged by every refused one; (init, uid) charged
	# by the 64 setresuid() and uncharged by the 64 unshare()
	{
		awk '$1 == "STORM" { print $2, 1 + $4 + $5, $5 }' "$WL"
		echo "$INIT_NS $NNS $NNS"
	} | sort > "$T/want.charges"
	awk -v u=$U '$1 == "ROW" && $4 == u { print $2, $13, $14 }' "$T/events.flat" | sort > "$T/got.charges"
	expect_counts "--events: nproc charges = 1 + forks tried, uncharges = forks refused, per namespace; $NNS/$NNS at the initial namespace" \
		1 "$T/want.charges" "$T/got.charges" "$VIEW_MISSES"
	# the ring buffer: every charge and uncharge --events counted at the
	# uid's rows (all alive), a line per refusal, 65 allocs
	set -- $(json_sums $U)
	ringbuf_check $U "charges $1 uncharges $2 denied $ref alloc $((NNS + 1)) free 0"
	workload_release $U $((U + 1))
	summary "part b: $NNS namespaces, $att forks tried, $adm admitted, $ref refused ($(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^level=/) print $i }' "$T/refused.trace" | sort | uniq -c | awk '{ printf "%s%s x%s", n++ ? ", " : "", $2, $1 }')) = DENY in both JSONs = refusal events"
else
	part_abandon
fi
part_end
