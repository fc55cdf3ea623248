#!/bin/sh
# The ucounts iterator is exact under churn (patch 0007): 10,000 ucounts
# held alive while other CPUs create and free ucounts of other uids, and
# the pinned iterator read 37 bytes at a time, so that it stops and resumes
# at nearly every row. Every held ucounts appears exactly once, and no
# (namespace, uid) pair appears twice. Meant for an SMP guest; bounded: the
# churn stops by itself after 60 s. KTAP.
OBJ=/uct/bpf/ucounts_iter.bpf.o
PIN=/sys/fs/bpf/uct-churn-iter
C=/uct/bin/uct-churn
HELD=${CHURN_HELD:-10000}
HOLD_UID=$((0x60000000))	# held: (initial ns, HOLD_UID + i)
CHURN_UID=$((0x61000000))	# churned: 256 uids, 4 workers

echo "KTAP version 1"
[ -f "$OBJ" ] && [ -x "$C" ] || { echo "1..0 # SKIP $OBJ or $C missing"; exit 4; }
. /uct/tests/lib/ktap.sh
echo "# $(grep -c ^processor /proc/cpuinfo) CPUs"

old_max=$(cat /proc/sys/user/max_user_namespaces)
echo $((HELD + 1000)) > /proc/sys/user/max_user_namespaces
rm -f /tmp/churn.hold /tmp/churn.out "$PIN"
mkfifo /tmp/churn.in
# held until its stdin closes
$C hold "$HELD" "$HOLD_UID" < /tmp/churn.in > /tmp/churn.hold 2>&1 &
holder=$!
exec 7> /tmp/churn.in
# Setup time depends on the host's load (CI runs another guest beside
# this one): bounded below /uct/run-tests' 600 s limit, and a setup that
# does not finish is one failure, not a cascade of wrong counts
if waitfor 4500 grep -q '^READY' /tmp/churn.hold; then
	pass "$HELD user namespaces of distinct uids held"
else
	fail "$HELD user namespaces of distinct uids held (not ready after 450 s)"
	sed 's/^/# /' /tmp/churn.hold
	kill $holder
	exec 7>&-
	echo "$old_max" > /proc/sys/user/max_user_namespaces
	echo "1..$n"
	exit 1
fi
bpftool iter pin "$OBJ" "$PIN" || fail "bpftool iter pin"
init_ns=$(stat -L -c %i /proc/1/ns/user)

$C churn 4 "$CHURN_UID" 256 60 > /tmp/churn.out 2>&1 &
churner=$!
waitfor 300 grep -q '^STARTED' /tmp/churn.out || fail "churn workers started"
dd if="$PIN" of=/tmp/churn.table bs=37 2> /dev/null
kill -TERM $churner
wait $churner
ops=$(sed -n 's/^OPS //p' /tmp/churn.out)
echo "# churn: ${ops:-?} user namespaces created and freed by 4 workers around the read"
expect "churn ran during the read (workers started before it)" \
	"$(grep -c '^STARTED' /tmp/churn.out)" 1

# rows: ns_inum level uid owner_uid nproc msgqueue sigpending memlock
held_rows=$(awk -v ns="$init_ns" -v lo="$HOLD_UID" -v hi=$((HOLD_UID + HELD)) \
	'NR > 1 && $1 == ns && $3 >= lo && $3 < hi' /tmp/churn.table | wc -l | tr -d ' ')
held_uids=$(awk -v ns="$init_ns" -v lo="$HOLD_UID" -v hi=$((HOLD_UID + HELD)) \
	'NR > 1 && $1 == ns && $3 >= lo && $3 < hi { print $3 }' /tmp/churn.table | sort -u | wc -l | tr -d ' ')
expect "every held ucounts shown: $HELD rows of $HELD distinct uids" "$held_rows $held_uids" "$HELD $HELD"
dups=$(awk 'NR > 1 { print $1, $3 }' /tmp/churn.table | sort | uniq -d | wc -l | tr -d ' ')
expect "no (namespace, uid) pair shown twice, churned ones included" "$dups" 0
expect "header once, first" "$(grep -n '^ns_inum ' /tmp/churn.table | cut -d: -f1 | tr '\n' ' ')" "1 "
echo "# $(($(wc -l < /tmp/churn.table) - 1)) rows read 37 bytes at a time"

exec 7>&-
wait $holder
rm -f "$PIN" /tmp/churn.in
echo "$old_max" > /proc/sys/user/max_user_namespaces
echo "1..$n"
[ "$fails" -eq 0 ]
