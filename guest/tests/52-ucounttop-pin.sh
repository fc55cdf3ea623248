#!/bin/sh
# 52: --pin DIR pins maps (with BTF) and links so bpftool can inspect a
# running ucounttop; they go away on exit unless --keep-pinned. A DIR not
# on bpffs is refused with exit 4, a non-empty one with exit 1.
UCT=${UCT:-/uct/bin/ucounttop}
BPFTOOL=${BPFTOOL:-/usr/sbin/bpftool}
P=/sys/fs/bpf/ucounttop
T=/tmp/t52
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ -x "$UCT" ] || exit 4
[ -x "$BPFTOOL" ] || { echo "# no bpftool"; exit 4; }
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf

$UCT --pin $P --events -b -d 0.3 > $T/out 2> $T/err &
u=$!
i=0
while [ ! -e $P/stats ] && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
check "pinned stats map appears" [ -e $P/stats ]
# something to count: a few forks
for k in 1 2 3; do /bin/true; done
sleep 1
ls $P > $T/ls
check "pinned: maps stats, evcounts, evcache, seen, counters and the links" \
	[ -n "$(grep -x stats $T/ls)" -a -n "$(grep -x evcounts $T/ls)" -a -n "$(grep -x evcache $T/ls)" -a -n "$(grep -x counters $T/ls)" -a -n "$(grep '^link_' $T/ls)" ]
$BPFTOOL map dump pinned $P/stats > $T/dump 2>&1
rc=$?
check "bpftool map dump pinned $P/stats exits 0" [ $rc -eq 0 ]
$BPFTOOL map dump pinned $P/evcache > $T/evdump 2>&1
check "the charge counts' per-CPU slots dump is BTF-formatted (id, charges)" \
	[ -n "$(grep '"id"' $T/evdump)" -a -n "$(grep charges $T/evdump)" ]
$BPFTOOL map dump pinned $P/evcounts > $T/evhash 2>&1
check "bpftool map dump pinned $P/evcounts (slots taken) exits 0" [ $? -eq 0 ]
$BPFTOOL map dump pinned $P/counters > $T/counters 2>&1
check "bpftool map dump pinned $P/counters shows the drop counters" [ -n "$(grep counters $T/counters)" ]
link=$(grep '^link_' $T/ls | head -n 1)
$BPFTOOL link show pinned $P/$link > $T/link 2>&1
check "bpftool link show pinned $P/$link exits 0" [ $? -eq 0 ]
$BPFTOOL prog show > $T/progs 2>&1
# the refusal hook: tp_refused with our series, overlimit_exit on a stock kernel
check "bpftool prog show lists our programs" [ -n "$(grep -E 'tp_refused|overlimit_exit' $T/progs)" ]

kill -INT $u
wait $u
rc=$?
check "SIGINT: exit 0 (got $rc)" [ $rc -eq 0 ]
check "pins removed on exit" [ ! -e $P ]
# The kernel frees a program whose last link and fd are gone from RCU
# callbacks and a workqueue, after ucounttop has exited: wait for that
# (at most 30 s), then look.
ours_listed() {
	$BPFTOOL prog show > $T/progs2 2>&1
	grep -qE 'tp_refused|overlimit_exit|inc_exit|inc_over_exit|snap_task|snap_ucounts' $T/progs2
}
i=0
while ours_listed && [ $i -lt 300 ]; do
	usleep 100000
	i=$((i + 1))
done
check "programs detached on exit" [ -z "$(grep -E 'tp_refused|overlimit_exit|inc_exit|inc_over_exit|snap_task|snap_ucounts' $T/progs2)" ]

$UCT --pin $P --keep-pinned -b -n 1 > /dev/null 2> $T/keep.err
rc=$?
check "--keep-pinned -n 1 exits 0 (got $rc)" [ $rc -eq 0 ]
check "--keep-pinned leaves the pins" [ -e $P/stats ]
$BPFTOOL prog show > $T/progs3 2>&1
check "--keep-pinned leaves the programs attached" [ -n "$(grep -E 'tp_refused|overlimit_exit' $T/progs3)" ]

$UCT --pin $P -b -n 1 > /dev/null 2> $T/busy.err
rc=$?
check "--pin on a non-empty dir: exit 1 (got $rc)" [ $rc -eq 1 ]
check "... saying how to clean it up" [ -n "$(grep "rm -r $P" $T/busy.err)" ]
rm -r $P

mkdir -p /tmp/notbpffs
$UCT --pin /tmp/notbpffs/u -b -n 1 > /dev/null 2> $T/nofs.err
rc=$?
check "--pin outside bpffs: exit 4 (got $rc)" [ $rc -eq 4 ]
check "... saying how to mount bpffs" [ -n "$(grep 'mount -t bpf' $T/nofs.err)" ]
echo "1..$n"
