#!/bin/sh
# 5K: ucounttop beside a real container engine, Debian 12's Docker
# (docker.io, containerd, runc) from the engine layer that
# tests/host/engines.sh adds to the guest (without it, skipped): dockerd
# with the cgroupfs driver, vfs storage, no bridge and no iptables, and
# an image imported from the guest's static busybox and uct-workload
# (nothing is pulled). Two containers, web and db, run as uid 1000 in the
# host's user namespace with --ulimit nproc=3, so they share one row,
# (initial namespace, 1000): web holds 1 process; db holds 2 and tries a
# third fork, which the kernel refuses (3 of uid 1000's processes run).
# ucounttop must split the row by the ids the engine gave them (docker
# inspect), 1 and 2, name each as docker ps does, put the refusal on db,
# select the row with --container and web's short id or db's name, and
# serve the same split on --listen
# (KTAP).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/json-rows.sh
. /uct/tests/lib/engines.sh
UCT=${UCT:-/uct/bin/ucounttop}
WL=/uct/bin/uct-workload
T=/tmp/t5k
echo "KTAP version 1"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
command -v dockerd > /dev/null 2>&1 ||
	{ echo "# no Docker in this guest: tests/host/engines.sh adds the engine layer"; exit 4; }
[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }
rm -rf $T
mkdir -p $T/img/bin /etc/docker
init=$(readlink /proc/self/ns/user | tr -dc 0-9)

containerd > $T/containerd.log 2>&1 &
cd_pid=$!
waitfor 600 test -S /run/containerd/containerd.sock
dockerd --iptables=false --ip6tables=false --bridge=none --storage-driver=vfs \
	--exec-opt native.cgroupdriver=cgroupfs \
	--containerd /run/containerd/containerd.sock > $T/dockerd.log 2>&1 &
dd_pid=$!
cleanup() {
	docker rm -f web db > /dev/null 2>&1
	kill $u $uj $ut $dd_pid 2> /dev/null
	wait $u $uj $ut $dd_pid 2> /dev/null
	kill $cd_pid 2> /dev/null
	wait $cd_pid 2> /dev/null
}
trap cleanup EXIT
answers dockerd $T/dockerd.log docker info
cp /bin/busybox $WL $T/img/bin/
for a in sh sleep; do ln -s busybox $T/img/bin/$a; done
tar -C $T/img -cf - . | docker import - uct > /dev/null 2> $T/import.err
expect "an image imported from busybox and uct-workload" "$?" 0

# ucounttop attaches first: a refusal counts for the instances attached
# when it happened
$UCT --listen 127.0.0.1:9470 -d 0.01 2> $T/listen.err &
u=$!
$UCT --json -d 0.2 -n 3000 > $T/live.json 2> $T/live.err &
uj=$!
$UCT -b -d 0.2 -n 3000 --uid 1000 > $T/live.txt 2> $T/livet.err &
ut=$!
waitfor 600 grep -q '^ucounttop: serving' $T/listen.err
waitfor 600 test -s $T/live.json
waitfor 600 grep -q NPROC $T/live.txt

run() {	# run NAME ARGS...: a container as uid 1000 under RLIMIT_NPROC 3
	name=$1
	shift
	docker run -d --name "$name" --network none --user 1000 --ulimit nproc=3 uct "$@" \
		> $T/$name.id 2> $T/$name.err
}
run web /bin/sleep 100000
run db /bin/uct-workload --fork-hold 1
ready() { docker logs db 2> /dev/null | grep -q '^READY'; }
waitfor 600 ready
docker logs db > $T/db.out 2>&1
expect "db holds 2 processes and its third fork is refused (EAGAIN)" \
	"$(grep -c '^FORK REFUSED EAGAIN$' $T/db.out)" 1
W=$(docker inspect -f '{{.Id}}' web)
D=$(docker inspect -f '{{.Id}}' db)
expect "the engine's ids" "$(echo "$W $D" | grep -cE '^[0-9a-f]{64} [0-9a-f]{64}$')" 1
# each container's cgroup is the engine's (cgroupfs driver: /docker/ID)
expect "web's process is in /docker/<web's id>" \
	"$(cat /proc/$(docker inspect -f '{{.State.Pid}}' web)/cgroup)" "0::/docker/$W"

# two refreshes of each live view after READY
waitfor 600 refreshed $T/live.json '^{' $(($(grep -c '^{' $T/live.json) + 2))
waitfor 600 refreshed $T/live.txt NPROC $(($(grep -c NPROC $T/live.txt) + 2))
kill $uj $ut
wait $uj $ut 2> /dev/null
uj= ut=
tail -n 1 $T/live.json > $T/j.json
r=$(row $T/j.json $init 1000)
expect "one row (initial namespace, 1000): nproc 3" \
	"$(echo "$r" | sed -n 's/.*"nproc":{"value":\([0-9]*\),.*/\1/p')" 3
expect "JSON: the row is shared" "$(echo "$r" | grep -c '"shared":true,')" 1
expect "JSON: db has 2 of its processes and the refusal" "$(share "$r" $D)" "2 1"
expect "JSON: web has 1, no refusal" "$(share "$r" $W)" "1 0"
expect "JSON: db's cgroup is /docker/<db's id>" "$(echo "$r" | grep -c "\"cgroup\":\"/docker/$D\"")" 1
expect "JSON: each by the name docker ps shows" \
	"$(echo "$r" | grep -c "{\"container_id\":\"$D\",\"container_name\":\"db\",.*{\"container_id\":\"$W\",\"container_name\":\"web\",")" 1

grep "^ *uid 1000 " $T/live.txt | tail -n 1 > $T/t.txt
sed 's/^/# /' $T/t.txt
expect "table: the row's line splits it by name, the refusal on db" \
	"$(grep "^ *uid 1000 " $T/t.txt | grep -c " in db 2 (refused 1), web 1\$")" 1
for c in "$(echo $W | cut -c1-12):web's short id" "db:db's name"; do
	$UCT --json -n 1 --container "${c%%:*}" > $T/c.json 2>&1
	expect "--container <${c#*:}>: the shared row" "$(row $T/c.json $init 1000 | wc -l)" 1
done

timeout 60 wget -q -O $T/om http://127.0.0.1:9470/metrics
expect "--listen: the same split, per container: db 2 and the refusal, web 1 and none" \
	"$(om_share $T/om $init 1000 $D), $(om_share $T/om $init 1000 $W)" "2 1, 1 0"

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
