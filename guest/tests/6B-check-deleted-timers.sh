#!/bin/sh
# POSIX timers deleted while their signals are queued keep those signals'
# SIGPENDING charges until the signals are collected (since 6.13 a timer's
# sigqueue is part of the timer, which has left the process's timer list;
# before, deleting it made the queued sigqueue an ordinary one). check must
# find the charges where the kernel keeps them: outstanding, queued to a
# live task, not lost; and their release, when the task exits, no double
# uncharge. As uid 2068, under check, a holder fires 5 timers with the
# real-time signals blocked, deletes them and stays. KTAP.
U=/uct/bin/ucounttop
W=/uct/bin/uct-workload
L=/uct/bin/uct-leftover
J=/tmp/check-6B.json
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/check-report.sh
init_ns=$(readlink /proc/1/ns/user | tr -dc 0-9)
row="\"ns\":$init_ns,\"level\":0,\"uid\":2068"

echo "KTAP version 1"
[ -x "$U" ] && [ -x "$W" ] && [ -x "$L" ] || { echo "# missing $U, $W or $L"; exit 4; }
rm -f /tmp/6B.out
# the holder outlives check's command, which waits until it is ready
$U check --json -o $J -- /bin/sh -c "$W --exec-as 2068 -- $L deleted-timers 5 > /tmp/6B.out &
	i=0; while ! grep -q READY /tmp/6B.out && [ \$i -lt 100 ]; do sleep 0.1; i=\$((i + 1)); done"
rc=$?
holder=$(sed -n 's/^PID //p' /tmp/6B.out)
fails_before=$fails
expect "the holder's 5 signals stay queued, and charged, after their timers are deleted" \
	"$(grep '^SIGQ' /tmp/6B.out)" "SIGQ 0 5"
expect "check exits 0" "$rc" 0
expect "report: result clean" "$(grep -o '"result":"[a-z]*","exit_code":[0-9]*' $J)" \
	'"result":"clean","exit_code":0'
expect "outstanding sigpending 5 at (init, uid 2068): queued to a live task" \
	"$(each_finding | grep -c "{\"class\":\"outstanding\",\"failing\":false,$row,\"type\":\"sigpending\",\"amount\":5,")" 1
[ $fails -eq $fails_before ] || show

# their release, from before this baseline: the holder exits
fails_before=$fails
$U check --json -o $J -- /bin/sh -c "kill ${holder:-none}; while [ -d /proc/$holder ]; do sleep 0.1; done"
rc=$?
expect "the holder exiting: check exits 0" "$rc" 0
expect "the holder exiting: no finding" "$(each_finding | wc -l | tr -d ' ')" 0
[ $fails -eq $fails_before ] || show
echo "1..$n"
[ $fails -eq 0 ]
