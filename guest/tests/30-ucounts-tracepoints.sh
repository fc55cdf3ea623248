#!/bin/sh
# The "ucounts" trace events (the tracepoints series, v3): they exist with
# the fixed ABI, known workloads produce exactly the expected events and
# fields, and every refused request gives exactly one refusal event.
# Every workload runs as its own uid (20xx) in a new user namespace, and an
# event filter keeps only uids 2000-2999, so nothing else in the guest
# (running as root) can add events. KTAP.
T=/sys/kernel/tracing
E=$T/events/ucounts
W=/uct/bin/uct-workload
EVENTS="ucounts_alloc ucounts_free ucounts_rlimit_charge ucounts_rlimit_uncharge ucounts_rlimit_refused"

echo "KTAP version 1"
if [ ! -d "$E" ]; then
	echo "1..1"
	echo "not ok 1 trace events under $E (kernel without the series?)"
	exit 1
fi
if [ ! -x "$W" ]; then
	echo "1..0 # SKIP $W (runs commands as another uid) is missing"
	exit 4
fi
# uct-workload --exec-as wants full paths
UNSHARE=$(which unshare)

. /uct/tests/lib/ktap.sh

# Events of the last workload, from the snapshot in $TR.
# ev EVENT [ERE]: the lines of EVENT (or of the events it is a prefix of)
# matching ERE (fields "name=value")
ev() { grep -E " $1[a-z_]*: " "$TR" | grep -E -- "${2:-.}"; }
# count EVENT [ERE]
count() { ev "$@" | wc -l | tr -d ' '; }
# vals EVENT ERE FIELD: FIELD of the matching events, in order, space separated
vals() { ev "$1" "$2" | sed -n "s/.* $3=\([^ ]*\).*/\1/p" | tr '\n' ' ' | sed 's/ $//'; }
# seq_vals FROM TO: "FROM ... TO", counting up or down
seq_vals() { seq "$1" "$(($1 <= $2 ? 1 : -1))" "$2" | tr '\n' ' ' | sed 's/ $//'; }

start_trace() {
	echo 0 > $T/tracing_on
	echo > $T/trace
	echo 1 > $T/tracing_on
}
# stop_trace NAME: snapshot the buffer into $TR
stop_trace() {
	echo 0 > $T/tracing_on
	TR=/tmp/trace-$1.txt
	cat $T/trace > "$TR"
}

# --- the ABI -------------------------------------------------------------
for e in $EVENTS; do
	if [ -r "$E/$e/format" ] && [ -r "$E/$e/id" ]; then
		pass "event ucounts:$e exists (format, perf id)"
	else
		fail "event ucounts:$e exists (format, perf id)"
	fi
done
# fields FILE NAME...: every NAME is a field of the event's format
has_fields() {
	f=$E/$1/format
	shift
	for x in "$@"; do
		grep -qE "field:[^;]* $x;" "$f" || { echo "# $f: no field $x"; return 1; }
	done
}
for e in $EVENTS; do
	has_fields "$e" ucounts ns_inum ns_level uid || { fail "$e has ucounts ns_inum ns_level uid"; continue; }
	case $e in
	ucounts_free) has_fields $e 'rlimit\[[0-9]+\]' ;;
	ucounts_rlimit_charge) has_fields $e type delta value result level ;;
	ucounts_rlimit_uncharge) has_fields $e type delta value ;;
	ucounts_rlimit_refused) has_fields $e type level value max ;;
	esac && pass "$e fields" || fail "$e fields"
done
# every record is laid out without holes: every field starts where the
# previous one ends
for e in $EVENTS; do
	holes=$(sed -n 's/.*field:[^;]*;[[:space:]]*offset:\([0-9]*\);[[:space:]]*size:\([0-9]*\);.*/\1 \2/p' \
		"$E/$e/format" | awk 'NR > 1 && $1 != end { h++ } { end = $1 + $2 } END { print h + 0 }')
	expect "$e layout has no holes" "$holes" 0
done
# no field that never varies: an uncharge has no result and no level
f=$E/ucounts_rlimit_uncharge/format
expect "uncharge has no result or level field" \
	"$(grep -cE 'field:[^;]* (result|level);' "$f")" 0
# the free event's counters are an array of UCOUNT_RLIMIT_COUNTS longs,
# with the enum resolved for parsers
expect "free: rlimit is long[4] (enum rlimit_type)" \
	"$(grep -oE 'field:long rlimit\[[^]]*\];' $E/ucounts_free/format)" "field:long rlimit[4];"

# __print_symbolic with TRACE_DEFINE_ENUM: the enum names are numbers in
# the format, so perf/libtraceevent can decode the type.
f=$E/ucounts_rlimit_charge/format
if grep -q '{ 0, "nproc" }, { 1, "msgqueue" }, { 2, "sigpending" }, { 3, "memlock" }' "$f" &&
	grep -q '{ 0, "charged" }, { 1, "charged_over" }, { 2, "refused" }, { 3, "no_ref" })' "$f" &&
	! grep -q 'UCOUNT_RLIMIT_\|UCOUNTS_' "$f"; then
	pass "rlimit type and result printed symbolically, enum values exported"
else
	fail "rlimit type and result printed symbolically, enum values exported"
	grep '^print fmt' "$f" | sed 's/^/# /'
fi
# tp_btf/raw_tp programs get the TP_PROTO through btf_trace_<event>
btf=$(bpftool btf dump file /sys/kernel/btf/vmlinux 2>/dev/null | grep -c "TYPEDEF 'btf_trace_ucounts_")
expect "5 btf_trace_ucounts_* types in vmlinux BTF (tp_btf)" "$btf" 5

echo 'uid >= 2000 && uid < 3000' > $E/filter
echo 1 > $E/enable

# --- K forks in a user namespace (RLIMIT_NPROC) ---------------------------
K=5
# ash runs the last command of "sh -c" without forking: end with ":"
loop="$(seq $K | sed 's/.*/( : );/' | tr -d '\n') :"
start_trace
$W --exec-as 2001 -- $UNSHARE -U /bin/sh -c "$loop"
# both ucounts go away: the leaf with the last cred, (init, 2001) with the
# namespace (freed from a work item)
waitfor 50 sh -c "[ \$(grep -c ' ucounts_free: .* uid=2001 ' $T/trace) -ge 2 ]"
stop_trace nproc
U="uid=2001 type=nproc"
# setresuid (level 0), unshare (level 1), then one per fork at value 2
expect "nproc: charge events (setuid, unshare, $K forks)" \
	"$(vals ucounts_rlimit_charge "$U" ns_level) / $(vals ucounts_rlimit_charge "$U" value)" \
	"0 1 $(seq $K | sed 's/.*/1/' | tr '\n' ' ')/ 1 1 $(seq $K | sed 's/.*/2/' | tr '\n' ' ' | sed 's/ $//')"
expect "nproc: charges have delta=1, result=charged, level=-1" \
	"$(count ucounts_rlimit_charge "$U delta=1 value=[0-9]+ result=charged level=-1$")" $((K + 2))
# unshare drops level 0 (which keeps the level-1 charge: 1), each fork
# exits back to 1, and the shell's exit leaves 0
expect "nproc: uncharge events (unshare, $K exits, shell exit)" \
	"$(vals ucounts_rlimit_uncharge "$U" ns_level) / $(vals ucounts_rlimit_uncharge "$U" value)" \
	"0 $(seq $((K + 1)) | sed 's/.*/1/' | tr '\n' ' ')/ $(seq $((K + 1)) | sed 's/.*/1/' | tr '\n' ' ')0"
expect "nproc: uncharges have delta=1 and end with the value" \
	"$(count ucounts_rlimit_uncharge "$U delta=1 value=[0-9]+$")" $((K + 2))
expect "nproc: one ucounts_alloc per level" "$(vals ucounts_alloc uid=2001 ns_level)" "0 1"
expect "nproc: both freed with all four counters at 0" \
	"$(vals ucounts_free uid=2001 ns_level) $(count ucounts_free 'uid=2001 rlimit=\{0x0,0x0,0x0,0x0\}$')" "1 0 2"
expect "nproc: no refusal events" "$(count ucounts_rlimit_refused)" 0
ns1=$(vals ucounts_alloc 'ns_level=1 uid=2001' ns)
expect "nproc: level-1 events all name the new namespace" \
	"$(count ucounts_rlimit_ 'ns_level=1 uid=2001')" "$(count ucounts_rlimit_ "ns=$ns1 ns_level=1 uid=2001")"
# the object id pairs a ucounts' events: every event of (ns1, 2001) carries
# the id of its alloc, and the free carries it too
id1=$(vals ucounts_alloc "ns=$ns1 ns_level=1 uid=2001" ucounts)
expect "nproc: one object id for every event of the level-1 ucounts" \
	"$(ev ucounts_ "ns=$ns1 ns_level=1 uid=2001" | sed -n 's/.* ucounts=\([^ ]*\) .*/\1/p' | sort -u)" "$id1"

# --- N queued real-time signals (RLIMIT_SIGPENDING) ------------------------
N=4
rm -f /tmp/sig.pid /tmp/sig.child
start_trace
# its pid first, the child's last: the test waits for the last one
$W --exec-as 2002 -- $UNSHARE -U /bin/sh -c \
	'trap : 34; echo $$ > /tmp/sig.pid; sleep 1000 & echo $! > /tmp/sig.child; while :; do wait; done' &
waitfor 300 test -s /tmp/sig.child
pid=$(cat /tmp/sig.pid 2>/dev/null)
sigq=
if [ -n "$pid" ]; then
	# stopped, it cannot dequeue: the signals stay queued and charged
	kill -STOP "$pid"
	waitfor 300 sh -c "grep -q '^State:.*T' /proc/$pid/status"
	i=0
	while [ $i -lt $N ]; do
		kill -34 "$pid"
		i=$((i + 1))
	done
	sigq=$(sed -n 's/^SigQ:[[:space:]]*\([0-9]*\)\/.*/\1/p' /proc/$pid/status)
	kill -CONT "$pid"
	waitfor 300 sh -c "grep -q '^SigQ:[[:space:]]*0/' /proc/$pid/status"
fi
stop_trace sigpending
# gone whatever happened above: a namespace left behind with its unmapped
# uid would show in later tests' views
kill -KILL $(cat /tmp/sig.pid /tmp/sig.child 2> /dev/null) 2> /dev/null
U="ns_level=1 uid=2002 type=sigpending"
expect "sigpending: SigQ shows the $N queued signals" "$sigq" "$N"
# SIGSTOP is queued and dequeued once, then the N signals pile up
expect "sigpending: charge values (SIGSTOP, then $N queued)" \
	"$(vals ucounts_rlimit_charge "$U" value)" "1 $(seq_vals 1 $N)"
expect "sigpending: uncharge values (SIGSTOP, then $N delivered)" \
	"$(vals ucounts_rlimit_uncharge "$U" value)" "0 $(seq_vals $((N - 1)) 0)"
expect "sigpending: every event is delta=1, every charge result=charged level=-1" \
	"$(count ucounts_rlimit_ "uid=2002 type=sigpending") $(count ucounts_rlimit_ "$U delta=1") $(count ucounts_rlimit_charge "$U .*result=charged level=-1$")" \
	"$((2 * N + 2)) $((2 * N + 2)) $((N + 1))"

# --- one POSIX message queue of known size (RLIMIT_MSGQUEUE) ---------------
mq=/proc/sys/fs/mqueue
old_msg=$(cat $mq/msg_default)
old_size=$(cat $mq/msgsize_default)
echo 4 > $mq/msg_default
echo 1024 > $mq/msgsize_default
btf_size() {
	bpftool btf dump file /sys/kernel/btf/vmlinux | sed -n "s/^\[[0-9]*\] STRUCT '$1' size=\([0-9]*\) .*/\1/p" | head -n 1
}
msg=$(btf_size msg_msg)
node=$(btf_size posix_msg_tree_node)
# mqueue_get_inode(): maxmsg * (msgsize + sizeof(msg_msg)) + min(maxmsg, MQ_PRIO_MAX) * node
bytes=$((4 * 1024 + 4 * msg + 4 * node))
start_trace
$W --exec-as 2003 -- $UNSHARE -U /bin/sh -c ': > /dev/mqueue/uct-tp'
created=$?
rm -f /dev/mqueue/uct-tp
stop_trace msgqueue
echo "$old_msg" > $mq/msg_default
echo "$old_size" > $mq/msgsize_default
expect "msgqueue: queue created by uid 2003" "$created" 0
expect "msgqueue: one charge of $bytes bytes" \
	"$(ev ucounts_rlimit_charge 'uid=2003 type=msgqueue' | sed 's/.*: ucounts=[^ ]* ns=[0-9]* //')" \
	"ns_level=1 uid=2003 type=msgqueue delta=$bytes value=$bytes result=charged level=-1"
expect "msgqueue: one uncharge of $bytes bytes at unlink" \
	"$(ev ucounts_rlimit_uncharge 'uid=2003 type=msgqueue' | sed 's/.*: ucounts=[^ ]* ns=[0-9]* //')" \
	"ns_level=1 uid=2003 type=msgqueue delta=$bytes value=0"

# --- fork refused by the leaf's RLIMIT_NPROC -----------------------------
start_trace
$W --exec-as 2004 -- $UNSHARE -U /bin/sh -c 'ulimit -u 1; ( : ); :' 2> /tmp/deny1.err
rc=$?
stop_trace deny-leaf
U="uid=2004 type=nproc"
expect "leaf limit: the fork is refused" "$rc $(grep -c "can't fork" /tmp/deny1.err)" "2 1"
expect "leaf limit: charges (setuid, unshare, refused fork) all under every ns max" \
	"$(vals ucounts_rlimit_charge "$U" value) / $(vals ucounts_rlimit_charge "$U" result)" "1 1 2 / charged charged charged"
expect "leaf limit: one refusal, over the task's own RLIMIT_NPROC (level = ns_level)" \
	"$(ev ucounts_rlimit_refused "$U" | sed 's/.*: ucounts=[^ ]* ns=[0-9]* //')" \
	"ns_level=1 uid=2004 type=nproc level=1 value=2 max=1"
expect "leaf limit: uncharges (unshare, refused fork, exit)" \
	"$(vals ucounts_rlimit_uncharge "$U" ns_level) / $(vals ucounts_rlimit_uncharge "$U" value)" "0 1 1 / 1 1 0"

# --- fork refused by the parent namespace's max ----------------------------
# The namespace is created with a soft RLIMIT_NPROC of 2, which becomes the
# max of (init, 2005); inside, the soft limit is raised back. A second
# process is fine (2 <= 2), a third one goes over at level 0.
rm -f /tmp/deny2.sleep
start_trace
$W --exec-as 2005 -- /bin/sh -c 'ulimit -Su 2; exec unshare -U /bin/sh -c "ulimit -Su 100; sleep 1000 & echo \$! > /tmp/deny2.sleep; ( : ); :"' 2> /tmp/deny2.err
rc=$?
stop_trace deny-parent
[ -s /tmp/deny2.sleep ] && kill -KILL "$(cat /tmp/deny2.sleep)"
U="uid=2005 type=nproc"
expect "parent limit: the fork is refused" "$rc $(grep -c "can't fork" /tmp/deny2.err)" "2 1"
expect "parent limit: charges (setuid, unshare, fork, refused fork)" \
	"$(vals ucounts_rlimit_charge "$U" ns_level) / $(vals ucounts_rlimit_charge "$U" value) / $(vals ucounts_rlimit_charge "$U" result) / $(vals ucounts_rlimit_charge "$U" level)" \
	"0 1 1 1 / 1 1 2 3 / charged charged charged charged_over / -1 -1 -1 0"
expect "parent limit: one refusal, at level 0 (the initial namespace's row)" \
	"$(ev ucounts_rlimit_refused "$U" | sed 's/.*: ucounts=[^ ]* ns=[0-9]* //')" \
	"ns_level=1 uid=2005 type=nproc level=0 value=3 max=2"
expect "parent limit: uncharges (unshare, refused fork, exit)" \
	"$(vals ucounts_rlimit_uncharge "$U" ns_level) / $(vals ucounts_rlimit_uncharge "$U" value)" "0 1 1 / 1 2 1"

# --- execve refused after setresuid() over RLIMIT_NPROC ---------------------
# set_user() only flags PF_NPROC_EXCEEDED (no event); execve() refuses.
rm -f /tmp/exec.sleep
$W --exec-as 2008 -- /bin/sh -c 'echo $$ > /tmp/exec.sleep; exec sleep 1000' &
waitfor 50 test -s /tmp/exec.sleep
start_trace
sh -c "ulimit -u 0; exec $W --exec-as 2008 -- /bin/true" 2> /tmp/exec.err
rc=$?
stop_trace deny-exec
[ -s /tmp/exec.sleep ] && kill -KILL "$(cat /tmp/exec.sleep)"
expect "execve: refused with EAGAIN" "$rc $(grep -c 'Resource temporarily unavailable' /tmp/exec.err)" "127 1"
expect "execve: one refusal, at the leaf (level = ns_level), the 2 processes over the limit of 0" \
	"$(ev ucounts_rlimit_refused 'uid=2008' | sed 's/.*: ucounts=[^ ]* ns=[0-9]* //')" \
	"ns_level=0 uid=2008 type=nproc level=0 value=2 max=0"

# --- one refusal event per refused request, all four types -----------------
# uct-workload --denials: uid 1005 in namespace D1 (created by 1004 with
# RLIMIT_NPROC 3, SIGPENDING 4, MSGQUEUE 1.5 queues, MEMLOCK 2 pages) is
# refused 3 forks, 2 RT signals, 1 mq_open and 1 SHM_LOCK, and counts them.
echo 'uid >= 1000 && uid < 3000' > $E/filter
rm -f /tmp/den.wl
start_trace
$W --denials > /tmp/den.wl 2> /tmp/den.err &
wl=$!
waitfor 600 grep -q '^READY' /tmp/den.wl
stop_trace denials
kill $wl; wait $wl
d1=$(sed -n 's/^NS D1 \([0-9]*\) .*/\1/p' /tmp/den.wl)
mqb=$(sed -n 's/^MQBYTES //p' /tmp/den.wl)
for t in nproc sigpending msgqueue memlock; do
	want=$(sed -n "s/^DENY $d1 1005 $t //p" /tmp/den.wl)
	expect "refusals: $t: one event per refusal the workload counted ($want)" \
		"$(count ucounts_rlimit_refused "type=$t ")" "${want:-missing}"
done
# where: NPROC and SIGPENDING fill (init, 1004), the level above D1, first.
# The mqueue and SHM_LOCK charges go over 1005's own rlimits and D1's max
# (the same values) at once: the charge reports the level above over, and
# the kernel then refuses without comparing the leaf with the rlimit, so
# level 0 refused (v2 walked again from the leaf and said the leaf)
expect "refusals: nproc at level 0, value 4 over max 3" \
	"$(ev ucounts_rlimit_refused 'type=nproc ' | sed 's/.*: ucounts=[^ ]* //' | sort -u)" \
	"ns=$d1 ns_level=1 uid=1005 type=nproc level=0 value=4 max=3"
expect "refusals: sigpending at level 0, value 5 over max 4" \
	"$(ev ucounts_rlimit_refused 'type=sigpending ' | sed 's/.*: ucounts=[^ ]* //' | sort -u)" \
	"ns=$d1 ns_level=1 uid=1005 type=sigpending level=0 value=5 max=4"
expect "refusals: msgqueue over D1's max, at level 0 (the decision's level)" \
	"$(ev ucounts_rlimit_refused 'type=msgqueue ' | sed 's/.*: ucounts=[^ ]* //')" \
	"ns=$d1 ns_level=1 uid=1005 type=msgqueue level=0 value=$((2 * mqb)) max=$((mqb + mqb / 2))"
expect "refusals: memlock over D1's max, at level 0 (the decision's level), in pages" \
	"$(ev ucounts_rlimit_refused 'type=memlock ' | sed 's/.*: ucounts=[^ ]* //')" \
	"ns=$d1 ns_level=1 uid=1005 type=memlock level=0 value=3 max=2"
expect "refusals: their charges said charged_over at level 0" \
	"$(count ucounts_rlimit_charge "uid=1005 type=(msgqueue|memlock) .*result=charged_over level=0$")" 2
expect "refusals: no other refusal events" "$(count ucounts_rlimit_refused)" 7
# the SIGPENDING refusals are decided in inc_rlimit_get_ucounts(): their
# charge events say so too, and leave nothing charged
expect "refusals: refused sigpending charges say result=refused at level 0" \
	"$(count ucounts_rlimit_charge "uid=1005 type=sigpending .*result=refused level=0$")" 2

# --- over a limit, let through: no refusal event ---------------------------
# root's forks over RLIMIT_NPROC (the initial root is exempt) and a SHM_LOCK
# over RLIMIT_MEMLOCK with CAP_IPC_LOCK
echo 'uid == 0' > $E/filter
start_trace
sh -c 'ulimit -u 1; ( : ); ( : ); :'
rc1=$?
locked=$(sh -c "ulimit -l 0; exec $W --shm-lock 2")
stop_trace bypass
expect "bypass: root's forks over RLIMIT_NPROC 1 succeed" "$rc1" 0
expect "bypass: SHM_LOCK of 2 pages over RLIMIT_MEMLOCK 0 with CAP_IPC_LOCK" "$locked" LOCKED
expect "bypass: the SHM_LOCK was charged (2 pages over the limit)" \
	"$(count ucounts_rlimit_charge 'ns_level=0 uid=0 type=memlock delta=2 ')" 1
expect "bypass: no refusal event" "$(count ucounts_rlimit_refused)" 0

echo 0 > $E/enable
echo 0 > $E/filter
echo 1 > $T/tracing_on
echo "1..$n"
[ "$fails" -eq 0 ]
