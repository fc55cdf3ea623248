#!/bin/sh
# 54: `ucounttop trace` prints one line per charge/uncharge/refusal with the
# documented columns; the refusals of uct-workload --denials appear with
# the right type and uid; -t filters before the ring buffer; --stack adds
# kernel frames; -w records the same events, which -r prints as those
# lines.
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
T=/tmp/t54
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ -x "$UCT" ] && [ -x "$WL" ] || exit 4

$UCT trace > $T/trace 2> $T/trace.err &
u=$!
# a recording of the same events beside it: attached once its header is
# in the file (32 bytes)
$UCT trace -w $T/rec 2> $T/rec.err &
r=$!
i=0
while { ! grep -q '^TIME' $T/trace || [ "$(stat -c %s $T/rec 2> /dev/null || echo 0)" -lt 32 ]; } &&
	[ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
check "trace: header printed once attached" [ -n "$(grep '^TIME *PID *COMM *NS *LVL *UID *TYPE *DELTA *NEW *RESULT' $T/trace)" ]
$WL --denials > $T/wl 2> $T/wl.err &
w=$!
i=0
while ! grep -q READY $T/wl && [ $i -lt 300 ]; do i=$((i + 1)); sleep 0.2; done
kill $w; wait $w
sleep 0.5
kill -INT $u
wait $u
rc=$?
check "trace: exit 0 on SIGINT (got $rc)" [ $rc -eq 0 ]
kill -INT $r
wait $r
rc=$?
check "trace -w: exit 0 on SIGINT (got $rc)" [ $rc -eq 0 ]
d1=$(grep '^NS D1' $T/wl | cut -d' ' -f3)
# -r prints the recording as trace printed the events: the workload's
# (in its namespaces, which the two did not see start or end at different
# moments) the same lines but for the time, whatever the order the CPUs
# put them in each ring in. A program preempted on its CPU skips the
# runs another task makes meanwhile (the kernel's recursion guard), in
# each ucounttop apart, and each says how many: a line only one printed
# is one the other's kernel count of skipped runs allows.
$UCT trace -r $T/rec > $T/rec.txt 2> $T/rec.txt.err
rc=$?
check "trace -r: exit 0, nothing on stderr (got $rc)" [ "$rc $(wc -c < $T/rec.txt.err)" = "0 0" ]
check "trace -r: the header line first" [ "$(head -n 1 $T/rec.txt)" = "$(head -n 1 $T/trace)" ]
wl_lines() { awk -v init="$(stat -L -c %i /proc/1/ns/user)" 'NR > 1 && $4 != init { $1 = ""; print }' "$1" | sort; }
wl_lines $T/trace > $T/trace.wl
wl_lines $T/rec.txt > $T/rec.wl
missed() { n=$(sed -n 's/^ucounttop: \([0-9]*\) events missed.*/\1/p' "$1"); echo "${n:-0}"; }
t_missed=$(missed $T/trace.err)
r_missed=$(missed $T/rec.err)
only_t=$(diff $T/trace.wl $T/rec.wl | grep -c '^- ')
only_r=$(diff $T/trace.wl $T/rec.wl | grep -c '^+ ')
same=no
[ -s $T/trace.wl ] && [ "$only_r" -le "$t_missed" ] && [ "$only_t" -le "$r_missed" ] && same=yes
check "trace -r: the workload's $(wc -l < $T/trace.wl) lines, as trace printed them (only in trace $only_t <= -w's skipped runs $r_missed, only in -r $only_r <= trace's $t_missed)" [ $same = yes ]
cmp -s $T/trace.wl $T/rec.wl || diff $T/trace.wl $T/rec.wl | head -n 10 | sed 's/^/# /'
check "trace -r --count 3: the header and 3 lines" [ "$($UCT trace -r $T/rec --count 3 | wc -l)" = 4 ]
# a recording cut inside a record: the whole records, then exit 1
size=$(stat -c %s $T/rec)
head -c $((size - 10)) $T/rec > $T/cut
$UCT trace -r $T/cut > $T/cut.txt 2> $T/cut.err
rc=$?
check "trace -r of a cut recording: exit 1, says where, prints the whole records before it" \
	[ "$rc $(grep -c 'ends inside a record at byte' $T/cut.err) $(wc -l < $T/cut.txt)" = \
	  "1 1 $(($(wc -l < $T/rec.txt) - 1))" ]
# -w -: a recording into a pipe, for another tool; never onto a terminal
$UCT trace -w - -t nproc --count 2 2> /dev/null | cat > $T/pipe &
p=$!
i=0
while [ "$(stat -c %s $T/pipe 2> /dev/null || echo 0)" -lt 32 ] && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
/bin/true; /bin/true
wait $p
check "trace -w - | cat: a recording -r reads, 2 nproc lines" \
	[ "$($UCT trace -r $T/pipe | awk 'NR > 1 && $7 == "nproc"' | wc -l)" = 2 ]
/uct/bin/uct-pty 80x24 '' -- $UCT trace -w - > $T/tty.out 2>&1
rc=$?
check "trace -w - on a terminal: exit 2, says to redirect (got $rc)" \
	[ "$rc $(grep -c 'a recording is binary, not for a terminal' $T/tty.out)" = "2 1" ]
$UCT trace -r $T/trace > /dev/null 2> $T/notrec.err
rc=$?
check "trace -r of a text trace: exit 1, not a recording" \
	[ "$rc $(grep -c 'not a recording of ucounttop trace -w' $T/notrec.err)" = "1 1" ]
for t in nproc msgqueue sigpending memlock; do
	want=$(grep "^DENY .* $t " $T/wl | cut -d' ' -f5)
	got=$(awk -v ns=$d1 -v t=$t '$4 == ns && $6 == 1005 && $7 == t && $10 == "DENIED"' $T/trace | wc -l)
	check "trace: $t DENIED lines for (D1, uid 1005) = $want (got $got)" [ "$got" = "$want" ]
done
check "trace: charge lines with +delta and ok" [ -n "$(awk '$7 == "nproc" && $8 == "+1" && $10 == "ok"' $T/trace)" ]
check "trace: uncharge lines" [ -n "$(awk '$10 == "uncharge"' $T/trace)" ]
check "trace: mqueue charges carry the byte count" \
	[ -n "$(awk -v b=$(grep MQBYTES $T/wl | cut -d' ' -f2) '$7 == "msgqueue" && $8 == "+"b' $T/trace)" ]

# -t is applied in BPF, before the ring buffer: 10,000 sigpending events
# through a 4 KiB ring (64 records) traced for msgqueue only put nothing in
# it, so nothing is dropped and no line is printed
$UCT trace -t msgqueue --ringbuf-kb 4 > $T/type 2> $T/type.err &
u=$!
i=0
while ! grep -q '^TIME' $T/type && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
/uct/bin/uct-bench sigqueue 5000 1 > /dev/null
sleep 0.5
kill -INT $u
wait $u
rc=$?
check "trace -t msgqueue: exit 0, no line of another type during a signal flood" \
	[ "$rc $(sed 1d $T/type | wc -l)" = "0 0" ]
check "trace -t msgqueue: the flood never reached the ring buffer (no drops)" \
	[ -z "$(grep dropped $T/type.err)" ]

$UCT trace --stack -t nproc --count 2 > $T/stack 2>&1 &
u=$!
i=0
while ! grep -q '^TIME' $T/stack && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
/bin/true; /bin/true
wait $u
check "trace --stack: kernel frames under each line" [ -n "$(grep -E '^        (copy_creds|copy_process|release_task|kernel_clone|dec_rlimit_ucounts|inc_rlimit_ucounts)' $T/stack)" ]
check "trace --stack: BPF trampoline frames hidden" [ -z "$(grep -E 'bpf_prog_|bpf_trampoline' $T/stack)" ]

$UCT trace -w $T/srec --stack -t nproc --count 2 2> /dev/null &
u=$!
i=0
while [ "$(stat -c %s $T/srec 2> /dev/null || echo 0)" -lt 32 ] && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
/bin/true; /bin/true
wait $u
$UCT trace -r $T/srec > $T/srec.txt 2>&1
nl=$(awk 'NR > 1 && /^[0-9]/ && $7 == "nproc"' $T/srec.txt | wc -l)
nf=$(grep -cE '^        (copy_creds|copy_process|release_task|kernel_clone|dec_rlimit_ucounts|inc_rlimit_ucounts)' $T/srec.txt)
check "trace -w --stack, then -r: 2 nproc lines ($nl) with kernel frames under them ($nf)" \
	[ "$nl $([ "$nf" -gt 0 ] && echo frames)" = "2 frames" ]
echo "1..$n"
