#!/bin/sh
# 5I: containers that share a uid in the initial user namespace, as Docker
# and most Kubernetes pods run them (KTAP). uct-workload --shared-uid:
# uid 9000 under RLIMIT_NPROC 5 in two containers' cgroups, a
# Docker-style one (docker-<A>.scope) holding 3 processes and a
# containerd-style one (.../cri-containerd-<B>.scope) holding 2; then B
# tries a sixth process, which the kernel refuses. They share one row,
# (initial namespace, 9000) 5/5: the table, JSON and --container must
# split it 3 and 2 and put the refusal on B, exactly; so must --listen's
# per-container families.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/json-rows.sh
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
T=/tmp/t5i
A=aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111aaaa1111
B=bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222bbbb2222
echo "KTAP version 1"
[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }
[ -e /sys/fs/cgroup/cgroup.procs ] || { echo "# no cgroup2 at /sys/fs/cgroup"; exit 4; }
rm -rf $T
mkdir -p $T
init=$(readlink /proc/self/ns/user | tr -dc 0-9)

# ucounttop attaches first, as live views that keep refreshing: a
# refusal counts for the instances attached when it happened
$UCT --listen 127.0.0.1:9469 -d 0.01 2> $T/listen.err &
u=$!
$UCT --json -d 0.2 -n 3000 > $T/live.json 2> $T/live.err &
uj=$!
$UCT -b -d 0.2 -n 3000 --uid 9000 > $T/live.txt 2> $T/livet.err &
ut=$!
cleanup() {
	kill $u $uj $ut $wl 2> /dev/null
	wait $u $uj $ut $wl 2> /dev/null
	uj= ut=
}
trap cleanup EXIT
if ! waitfor 600 grep -q '^ucounttop: serving' $T/listen.err ||
   ! waitfor 600 test -s $T/live.json || ! waitfor 600 grep -q NPROC $T/live.txt; then
	fail "ucounttop --listen, --json and -b started"
	sed 's/^/# /' $T/listen.err $T/live.err $T/livet.err
	echo "1..$n"
	exit 1
fi
$WL --shared-uid 9000 5 docker:$A:3 containerd:$B:2 > $T/wl.out 2> $T/wl.err &
wl=$!
if ! waitfor 600 grep -q '^READY' $T/wl.out; then
	fail "uct-workload --shared-uid ready"
	sed 's/^/# /' $T/wl.out $T/wl.err
	echo "1..$n"
	exit 1
fi
# two refreshes of each live view after READY
waitfor 600 refreshed $T/live.json '^{' $(($(grep -c '^{' $T/live.json) + 2))
waitfor 600 refreshed $T/live.txt NPROC $(($(grep -c NPROC $T/live.txt) + 2))
kill $uj $ut
wait $uj $ut
sed 's/^/# /' $T/wl.out
expect "A holds 3 processes, B 2, and B's sixth fork is refused (EAGAIN)" \
	"$(awk '$1 == "SHARE" { printf "%s %s ", $3, $4 } $1 == "FORK" { print $3, $4 }' $T/wl.out)" \
	"$A 3 $B 2 REFUSED EAGAIN"

tail -n 1 $T/live.json > $T/j.json
r=$(row $T/j.json $init 9000)
expect "one row (initial namespace, 9000): nproc 5" \
	"$(echo "$r" | sed -n 's/.*"nproc":{"value":\([0-9]*\),.*/\1/p')" 5
expect "JSON: the row is shared" "$(echo "$r" | grep -c '"shared":true,')" 1
expect "JSON: A has 3 of its processes, no refusal" "$(share "$r" $A)" "3 0"
expect "JSON: B has 2, and the refusal" "$(share "$r" $B)" "2 1"
expect "JSON: A first (the most processes), then B, nothing else" \
	"$(echo "$r" | grep -o '"container_id":"[0-9a-f]*"' | tr '\n' ' ')" \
	"\"container_id\":\"$A\" \"container_id\":\"$B\" "
expect "JSON: nothing of the row outside the two" \
	"$(echo "$r" | sed -n 's/.*"other":{"processes":\([0-9]*\),"denials":{"nproc":\([0-9]*\),.*/\1 \2/p')" \
	"0 0"
expect "JSON: the row's own refusal total" \
	"$(echo "$r" | sed -n 's/.*"nproc":{"value":5,[^}]*"denials":\([0-9]*\),.*/\1/p')" 1
expect "JSON: B's cgroup is containerd's" \
	"$(echo "$r" | grep -c "\"cgroup\":\"/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod[0-9a-f_]*.slice/cri-containerd-$B.scope\"")" 1

expect "table: the row's line splits it, the refusal on B" \
	"$(grep "^ *uid 9000 " $T/live.txt | tail -n 1 | grep -c " in $(echo $A | cut -c1-12) 3, $(echo $B | cut -c1-12) 2 (refused 1)\$")" 1
$UCT -b -n 1 --container "$(echo $B | cut -c1-8)" > $T/c.txt 2>&1
expect "--container B: the shared row" "$(grep -c '^ *uid 9000 ' $T/c.txt)" 1
expect "--container B: no 'no match'" "$(grep -c 'no match' $T/c.txt)" 0

timeout 60 wget -q -O $T/om http://127.0.0.1:9469/metrics
grep "^ucounttop_container_\|^ucounttop_nproc_processes{ns=\"$init\",level=\"0\",kuid=\"9000\"}" $T/om |
	sed 's/^/# /'
expect "--listen: the same split, per container: A 3 and no refusal, B 2 and the refusal" \
	"$(om_share $T/om $init 9000 $A), $(om_share $T/om $init 9000 $B)" "3 0, 2 1"

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
