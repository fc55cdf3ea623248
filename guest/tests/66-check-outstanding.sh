#!/bin/sh
# Charges a workload legitimately leaves behind are "outstanding", not
# errors: check exits 0, and 1 with --fail-outstanding. As uid 2067 the
# workload leaves a POSIX message queue and a SHM_LOCKed SysV segment (both
# outlive it) and queues 3 signals to a live process of the same uid
# (started before check, real-time signals blocked). Releasing all of that
# later, from before the baseline, is no double uncharge either. KTAP.
U=/uct/bin/ucounttop
W=/uct/bin/uct-workload
L=/uct/bin/uct-leftover
J=/tmp/check-out.json
. /uct/tests/lib/check-report.sh
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
has_finding() { each_finding | grep -qF "$1"; }
init_ns=$(readlink /proc/1/ns/user | tr -dc 0-9)
row="\"ns\":$init_ns,\"level\":0,\"uid\":2067"

echo "KTAP version 1"
rm -f /dev/mqueue/uct-left /dev/mqueue/uct-left2 /tmp/66.ready
$W --exec-as 2067 -- $L block > /tmp/66.ready &
blocker=$!
w=50
while ! grep -q READY /tmp/66.ready 2>/dev/null && [ $w -gt 0 ]; do usleep 100000; w=$((w - 1)); done

$U check --json -o $J -- $W --exec-as 2067 -- /bin/sh -c \
	"$L mq-open /uct-left 4 256 && $L shm-lock 6601 4 && $L sigqueue $blocker 3"
rc=$?
check "check exits 0 on leftovers (got $rc)" [ $rc -eq 0 ]
check "report: result clean, no failing finding" grep -q '"result":"clean","exit_code":0,' $J
check "outstanding msgqueue at (init, uid 2067): the queue still exists" \
	has_finding "{\"class\":\"outstanding\",\"failing\":false,$row,\"type\":\"msgqueue\","
check "outstanding memlock 4 pages at (init, uid 2067): the segment is still locked" \
	has_finding "{\"class\":\"outstanding\",\"failing\":false,$row,\"type\":\"memlock\",\"amount\":4,"
check "outstanding sigpending 3 at (init, uid 2067): queued to a live task" \
	has_finding "{\"class\":\"outstanding\",\"failing\":false,$row,\"type\":\"sigpending\",\"amount\":3,"
[ $fails -eq 0 ] || show

$U check --fail-outstanding --json -o $J -- $W --exec-as 2067 -- $L mq-open /uct-left2 4 256
rc=$?
check "--fail-outstanding: check exits 1 (got $rc)" [ $rc -eq 1 ]
check "--fail-outstanding: the one failing finding is the queue" \
	has_finding "{\"class\":\"outstanding\",\"failing\":true,$row,\"type\":\"msgqueue\","
check "--fail-outstanding: nothing else fails (got $(failing))" [ "$(failing)" = 1 ]

# release everything that now predates the baseline
$U check --json -o $J -- sh -c "rm /dev/mqueue/uct-left /dev/mqueue/uct-left2 && $L shm-rm 6601 && kill $blocker"
rc=$?
wait $blocker 2>/dev/null
check "releasing objects from before the baseline: check exits 0 (got $rc)" [ $rc -eq 0 ]
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
