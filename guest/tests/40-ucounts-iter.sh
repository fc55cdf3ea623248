#!/bin/sh
# The "ucounts" bpf iterator (patch 0007) through bpf/ucounts_iter.bpf.o:
# pinned, it lists the live ucounts table, and for namespaces and
# processes this test creates it shows exactly the expected rows, levels
# and counters; opened inside a user namespace, only that namespace's
# part of the table. KTAP.
#
#   uid 3001: N1 (level 1) holds 3 processes; N2, created inside N1,
#             (level 2) holds 2 more
#   uid 3002: M1 (level 1) holds 2 processes, 3 queued real-time signals
#             and one POSIX message queue of known size
OBJ=${UCOUNTS_ITER_OBJ:-/uct/bpf/ucounts_iter.bpf.o}
PIN=/sys/fs/bpf/uct-test-ucounts
W=/uct/bin/uct-workload
HEADER="ns_inum level uid owner_uid nproc msgqueue sigpending memlock"

echo "KTAP version 1"
[ -f "$OBJ" ] || { echo "1..0 # SKIP $OBJ not built"; exit 4; }
[ -x "$W" ] || { echo "1..0 # SKIP $W (runs commands as another uid) is missing"; exit 4; }
UNSHARE=$(which unshare)

. /uct/tests/lib/ktap.sh
# rows_of UIDS_ERE [FILE]: the table rows of those uids, sorted
rows_of() { awk -v re="^($1)\$" 'NR > 1 && $3 ~ re' "${2:-/tmp/it.table}" | sort; }
pids_of() { grep -lE "^Uid:[[:space:]]+($1)[[:space:]]" /proc/[0-9]*/status 2>/dev/null | cut -d/ -f3; }
inum() { stat -L -c %i "/proc/$1/ns/user"; }
cleanup() {
	for p in $(pids_of '3001|3002'); do kill -KILL "$p" 2>/dev/null; done
	rm -f /dev/mqueue/uct-it
}

rm -f "$PIN"
if bpftool iter pin "$OBJ" "$PIN" 2> /tmp/it.err; then
	pass "bpftool iter pin $(basename "$OBJ")"
else
	fail "bpftool iter pin $(basename "$OBJ")"
	sed 's/^/# /' /tmp/it.err
	echo "1..$n"
	exit 1
fi

# --- the table as it is ---------------------------------------------------
cat "$PIN" > /tmp/it.table
expect "header line first" "$(head -n 1 /tmp/it.table)" "$HEADER"
expect "every row has 8 numeric fields" \
	"$(awk 'NR > 1 && !/^[0-9]+ [0-9]+ [0-9]+ [0-9]+ -?[0-9]+ -?[0-9]+ -?[0-9]+ -?[0-9]+$/' /tmp/it.table)" ""
init_ns=$(inum 1)
# (initial ns, root) too: init_ucounts is hashed before mnt_init() counts
# the initial mount namespace (patch 0003)
expect "no (namespace, uid) listed twice" \
	"$(awk 'NR > 1 { print $1, $3 }' /tmp/it.table | sort | uniq -d)" ""
expect "init_ucounts: one (initial ns, level 0, root, owner root) row with processes" \
	"$(awk -v ns="$init_ns" '$1 == ns && $3 == 0 && $5 > 0 { print $2, $4 }' /tmp/it.table)" "0 0"

# --- known namespaces, processes and charges -------------------------------
cleanup
rm -f /tmp/it.n1 /tmp/it.n2 /tmp/it.m1 /tmp/it.m1c /tmp/it.go
mkfifo /tmp/it.go
# Creating N2 needs uid and gid 3001 mapped in N1: N1 waits on a fifo
# until they are.
$W --exec-as 3001 -- $UNSHARE -U /bin/sh -c '
	echo $$ > /tmp/it.n1
	read go < /tmp/it.go
	sleep 1000 &
	sleep 1000 &
	unshare -U /bin/sh -c "sleep 1000 & echo \$\$ > /tmp/it.n2; exec sleep 1000" &
	exec sleep 1000' &
waitfor 50 test -s /tmp/it.n1
echo "3001 3001 1" > "/proc/$(cat /tmp/it.n1)/uid_map"
echo "3001 3001 1" > "/proc/$(cat /tmp/it.n1)/gid_map"
echo go > /tmp/it.go

mq=/proc/sys/fs/mqueue
old_msg=$(cat $mq/msg_default)
old_size=$(cat $mq/msgsize_default)
echo 4 > $mq/msg_default
echo 1024 > $mq/msgsize_default
$W --exec-as 3002 -- $UNSHARE -U /bin/sh -c '
	trap : 34
	: > /dev/mqueue/uct-it
	sleep 1000 & echo $! > /tmp/it.m1c
	echo $$ > /tmp/it.m1
	while :; do wait; done' &
waitfor 50 test -s /tmp/it.m1c
waitfor 50 test -s /tmp/it.n2
echo "$old_msg" > $mq/msg_default
echo "$old_size" > $mq/msgsize_default
btf_size() {
	bpftool btf dump file /sys/kernel/btf/vmlinux | sed -n "s/^\[[0-9]*\] STRUCT '$1' size=\([0-9]*\) .*/\1/p" | head -n 1
}
mqb=$((4 * 1024 + 4 * $(btf_size msg_msg) + 4 * $(btf_size posix_msg_tree_node)))
m1=$(cat /tmp/it.m1)
kill -STOP "$m1"
waitfor 50 sh -c "grep -q '^State:.*T' /proc/$m1/status"
for i in 1 2 3; do kill -34 "$m1"; done
# every process has exec'd sleep (or waits)
all_3001() { [ "$(pids_of 3001 | wc -l)" -eq 5 ]; }
waitfor 50 all_3001
usleep 300000

n1=$(inum "$(cat /tmp/it.n1)")
n2=$(inum "$(cat /tmp/it.n2)")
nm=$(inum "$m1")
cat "$PIN" > /tmp/it.table
expect "uid 3001: (init, N1, N2) with levels 0, 1, 2 and nproc 5, 5, 2" \
	"$(rows_of 3001)" \
	"$(printf '%s\n' "$init_ns 0 3001 0 5 0 0 0" "$n1 1 3001 3001 5 0 0 0" "$n2 2 3001 3001 2 0 0 0" | sort)"
expect "uid 3002: (init, M1) with 2 processes, $mqb mqueue bytes, 3 signals" \
	"$(rows_of 3002)" \
	"$(printf '%s\n' "$init_ns 0 3002 0 2 $mqb 3 0" "$nm 1 3002 3002 2 $mqb 3 0" | sort)"
expect "SigQ of the stopped process agrees" \
	"$(sed -n 's/^SigQ:[[:space:]]*\([0-9]*\)\/.*/\1/p' /proc/$m1/status)" 3

# Restarting across read(): tiny reads stop and restart the walk at nearly
# every row, and must neither lose nor repeat one. Root's own counters
# move with kernel threads and our readers, so only keys are compared for
# uid 0.
dd if="$PIN" of=/tmp/it.dd bs=37 2> /dev/null
cat "$PIN" > /tmp/it.cat
expect "read in 37-byte pieces: same rows as one read" \
	"$(awk '{ print ($3 == 0 ? $1 " " $3 : $0) }' /tmp/it.dd | sort)" \
	"$(awk '{ print ($3 == 0 ? $1 " " $3 : $0) }' /tmp/it.cat | sort)"
expect "read in 37-byte pieces: header once, first" \
	"$(grep -n "^$HEADER\$" /tmp/it.dd)" "1:$HEADER"

# --- scoped to the reader's user namespace ------------------------------------
# Opened inside a new user namespace (root mapped to root) that holds a
# nested one, the pinned iterator shows the rows of that subtree only: its
# own (ns, root) at level 1 and the nested (ns, root) at level 2; none of the
# initial namespace's, and not N1's, N2's or M1's, which are siblings.
unshare -U -r /bin/sh -c "
	own=\$(stat -L -c %i /proc/self/ns/user)
	unshare -U sleep 1000 &
	k=\$!
	i=0
	while [ \"\$(stat -L -c %i /proc/\$k/ns/user)\" = \"\$own\" ] && [ \$i -lt 500 ]; do
		usleep 10000
		i=\$((i + 1))
	done
	echo \$own \$(stat -L -c %i /proc/\$k/ns/user)
	cat $PIN
	kill \$k" > /tmp/it.scoped 2> /tmp/it.scoped.err
set -- $(head -n 1 /tmp/it.scoped)
expect "inside a new user namespace: its own and its nested namespace's rows only" \
	"$(sed 1d /tmp/it.scoped | awk 'NR > 1 { print ($1 == own ? "own" : $1 == nested ? "nested" : "other " $1), $2, $3 }' own="$1" nested="$2" | sort)" \
	"$(printf '%s\n' "nested 2 0" "own 1 0")"
[ -s /tmp/it.scoped.err ] && sed 's/^/# /' /tmp/it.scoped.err

# --- held by an open file, no process ------------------------------------------
# uct-churn hold-ns: 50 namespaces made by clone(CLONE_NEWUSER), each child
# opening its namespace's file and exiting. The file's cred keeps
# (namespace, root) alive: a level-1 row of root with no process for each
# namespace the holder's fds name, gone once the files are closed.
held_rows() { # the rows of the namespaces in /tmp/it.held
	cat "$PIN" > /tmp/it.now
	awk 'FILENAME == "/tmp/it.held" { held[$1] = 1; next } FNR > 1 && held[$1]' \
		/tmp/it.held /tmp/it.now
}
rm -f /tmp/it.hold.in
mkfifo /tmp/it.hold.in
/uct/bin/uct-churn hold-ns 50 < /tmp/it.hold.in > /tmp/it.hold 2>&1 &
holder=$!
exec 8> /tmp/it.hold.in
waitfor 300 grep -q '^READY' /tmp/it.hold || fail "uct-churn hold-ns 50 ready"
for f in /proc/$holder/fd/*; do
	[ "$(readlink "$f" | cut -d: -f1)" = user ] && stat -L -c %i "$f"
done | sort -u > /tmp/it.held
expect "held by files: the holder has 50 namespaces open" "$(wc -l < /tmp/it.held)" 50
expect "held by files: one row each, root at level 1, owner root, no process" \
	"$(held_rows | awk '{ print $2, $3, $4, $5 }' | uniq -c | tr -s ' ')" " 50 1 0 0 0"
exec 8>&-
wait $holder
rm -f /tmp/it.hold.in
no_held_rows() { [ -z "$(held_rows)" ]; }
if waitfor 50 no_held_rows; then
	pass "held by files: the rows gone once the files are closed"
else
	fail "held by files: the rows gone once the files are closed"
	held_rows | sed 's/^/# left: /'
fi

# --- gone when released ---------------------------------------------------
cleanup
gone() { cat "$PIN" > /tmp/it.after && [ -z "$(rows_of '3001|3002' /tmp/it.after)" ]; }
if waitfor 50 gone; then
	pass "rows of uids 3001 and 3002 gone once their processes, queue and namespaces are"
else
	fail "rows of uids 3001 and 3002 gone once their processes, queue and namespaces are"
	rows_of '3001|3002' /tmp/it.after | sed 's/^/# left: /'
fi

rm -f "$PIN"
expect "unpinned" "$(ls "$PIN" 2>&1 > /dev/null | grep -c 'No such file')" 1
echo "1..$n"
[ "$fails" -eq 0 ]
