#!/bin/sh
# `ucounttop check` around refusals while interrupts charge: uid 2067 is
# refused 2000 mq_open() (RLIMIT_MSGQUEUE) and 2000 SHM_LOCK
# (RLIMIT_MEMLOCK) while signals arrive from each source of
# guest/tools/uct-alarms.c: a 1 ms ITIMER_REAL's SIGALRMs, charged in the
# timer interrupt under the refused task's tid; a 1 ms POSIX timer's; and
# SIGURGs for urgent bytes another task of the uid sends over loopback
# TCP, charged in its NET_RX softirq. Every refusal is the kernel's own
# and every charge is matched: check must find nothing, in each of
# ALARM_RUNS (3) runs per source. Bounded by the requests, not by time.
# KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
runs=${ALARM_RUNS:-3}
for src in itimer posix sigurg; do
	r=0
	while [ $r -lt "$runs" ]; do
		r=$((r + 1))
		$U check --json -o $J -- /uct/bin/uct-workload --exec-as 2067 -- \
			/uct/bin/uct-alarms $src 2000 > /tmp/alarms.out 2>&1
		rc=$?
		check "$src run $r: check exits 0 (got $rc)" [ $rc -eq 0 ]
		check "$src run $r: no failing finding (got $(failing))" [ "$(failing)" = 0 ]
		check "$src run $r: every request refused, signals meanwhile ($(tail -n 1 /tmp/alarms.out))" \
			grep -q '^refused 2000 2000 [1-9]' /tmp/alarms.out
		if [ $fails -gt 0 ]; then
			sed 's/^/# /' /tmp/alarms.out
			show
			break 2
		fi
	done
done
echo "1..$n"
[ $fails -eq 0 ]
