#!/bin/sh
# Stress (d): user namespaces nested as deep as they go (uct-stress deep):
# 32 below the initial one (33 levels), then as deep as the kernel allows
# (found by a probe; kernel/user_namespace.c refuses a child of level 33
# only, so that is 33 below, 34 levels). One process per level, and at the
# deepest level 2 more, 3 queued SIGRTMIN, a POSIX message queue and 2
# SHM_LOCKed pages: every level's row holds all of it (the charges
# propagate to every level). The chain's RLIMIT_NPROC fills the initial
# namespace's row exactly, so one more fork at the deepest level is refused
# there, at level 0. The JSON shows the chain (each row's parent is the
# level above), the counters return to baseline after teardown, and
# `ucounttop check` around it is clean. KTAP.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/stress.sh
U=$((0x70300000))

stress_init 73-stress-deep
for depth in ${STRESS_DEPTHS:-32 0}; do
	T=/tmp/73-stress-deep/d$depth
	mkdir -p "$T"
	trace_start $U $((U + 2))
	readers_start
	tracer_start $U
	workload_start deep --uid $U --depth $depth
	if workload_ready $U $((U + 1)); then
		snapshot
		d=$(stat_of depth)
		[ "$depth" = 0 ] && echo "# the kernel nests user namespaces $(stat_of max_depth) deep below the initial one ($(stat_of max_depth_errno) beyond)"
		echo "# depth $d: $(stat_of levels) levels, each row charged $(awk '$1 == "EXPECT" && $3 == '"$d"' { print $5 " processes, " $6 " mqueue bytes, " $7 " signals, " $8 " pages" }' "$WL") at the deepest"
		[ "$depth" = 0 ] || expect "depth $depth: the chain is $depth deep" "$d" "$depth"
		compare_all $U $((U + 1))
		phase "compared"
		# the chain in JSON: namespace of level k: parent = level k-1,
		# creator uid U; the row (ns_k, U): parent row (ns_k-1, U)
		for j in $JSONS; do
			expect "$j JSON: the $d namespaces below the initial one, each with the level above as parent and $U as creator" \
				"$(awk 'NR == FNR { if ($1 == "NS") want[$2] = $2 " " $3 " " $4 " " $5; next }
					$1 == "NSJ" && ($2 in want) { print $2, $3, $5, $6 }' "$WL" "$T/$j.flat" | sort)" \
				"$(awk '$1 == "NS" { print $2, $3, $4, $5 }' "$WL" | sort)"
			expect "$j JSON: the $(stat_of levels) rows of uid $U chain up level by level" \
				"$(awk -v u=$U 'NR == FNR { if ($1 == "NS") p[$2] = $4; next }
					$1 == "ROW" && $4 == u { print $2, $3, $5, $6 }' "$WL" "$T/$j.flat" | sort)" \
				"$(awk -v u=$U '$1 == "NS" { p[$2] = $4 } $1 == "EXPECT" { e[$2] = $3 }
					END { for (ns in e) print ns, e[ns], (e[ns] ? p[ns] : "-"), (e[ns] ? u : "-") }' "$WL" | sort)"
		done
		# the text view names every namespace of the chain with its level
		$UCT -b -n 1 --uid $U > "$T/table.txt" 2>&1
		expect "ucounttop -b --uid $U: a line 'ns INUM Llevel' for each of the $d namespaces" \
			"$(awk '$1 == "NS" { print $2, $3 }' "$WL" | while read -r ns l; do
				grep -qE "(^| )ns $ns L$l( |\$)" "$T/table.txt" || echo "level $l (ns $ns) not shown"; done)" ""
		set -- $(json_sums $U)
		ringbuf_check $U "charges $1 uncharges $2 denied 1 alloc $(stat_of levels) free 0"
		workload_release $U $((U + 2))
		summary "part d: $d deep, $(stat_of levels) levels x 4 counters, 1 fork refused at level 0"
	else
		trace_stop
		kill -USR1 "$(sed -n 's/^PID //p' "$WL")" 2> /dev/null
		wait $CHECK
		readers_stop
	fi
	times_note
done
echo "1..$n"
[ "$fails" -eq 0 ]
