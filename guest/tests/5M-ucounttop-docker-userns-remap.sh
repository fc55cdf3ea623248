#!/bin/sh
# 5M: Docker with --userns-remap (Debian 12's, from the engine layer that
# tests/host/engines.sh adds; without it, skipped), the daemon-wide form
# of what per-user-namespace counting is for: every container in a user
# namespace of its own, all mapped from the same subordinate range
# (dockremap's in /etc/subuid and /etc/subgid), so the root of web and
# the root of db are the same host uid, 100000. The daemon keeps its
# state in /var/lib/docker/100000.100000. The kernel counts host uid
# 100000 apart in each namespace, and charges both up to the row of the
# namespaces' creator, root (dockerd). ucounttop must name each
# container's namespace as docker ps does, show uid 100000's row in each
# with its own count under root's, and select a container with
# --container NAME (KTAP).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/json-rows.sh
. /uct/tests/lib/engines.sh
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5m
echo "KTAP version 1"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
command -v dockerd > /dev/null 2>&1 ||
	{ echo "# no Docker in this guest: tests/host/engines.sh adds the engine layer"; exit 4; }
[ -x "$UCT" ] || { echo "# missing $UCT"; exit 4; }
rm -rf $T
mkdir -p $T/img/bin /etc/docker
init=$(readlink /proc/self/ns/user | tr -dc 0-9)
# the user --userns-remap=default maps containers to, and its ranges
grep -q '^dockremap:' /etc/passwd || echo 'dockremap:x:998:998::/nonexistent:/bin/false' >> /etc/passwd
grep -q '^dockremap:' /etc/group || echo 'dockremap:x:998:' >> /etc/group
echo 'dockremap:100000:65536' > /etc/subuid
echo 'dockremap:100000:65536' > /etc/subgid
# the remapped root must be able to reach its state (dockerd checks)
mkdir -p /var/lib
chmod o+x / /var /var/lib

rm -f /run/containerd/containerd.sock
containerd > $T/containerd.log 2>&1 &
cd_pid=$!
waitfor 600 test -S /run/containerd/containerd.sock
dockerd --userns-remap=default --iptables=false --ip6tables=false --bridge=none \
	--storage-driver=vfs --exec-opt native.cgroupdriver=cgroupfs \
	--containerd /run/containerd/containerd.sock > $T/dockerd.log 2>&1 &
dd_pid=$!
cleanup() {
	docker rm -f web db > /dev/null 2>&1
	kill $dd_pid 2> /dev/null
	wait $dd_pid 2> /dev/null
	kill $cd_pid 2> /dev/null
	wait $cd_pid 2> /dev/null
}
trap cleanup EXIT
answers "dockerd --userns-remap=default" $T/dockerd.log docker info
expect "its state is in /var/lib/docker/100000.100000" \
	"$(docker info -f '{{.DockerRootDir}}')" /var/lib/docker/100000.100000
cp /bin/busybox $T/img/bin/
for a in sh sleep; do ln -s busybox $T/img/bin/$a; done
tar -C $T/img -cf - . | docker import - uct > /dev/null 2> $T/import.err
expect "an image imported from busybox" "$?" 0

for c in web db; do
	docker run -d --name $c --network none uct /bin/sleep 100000 > $T/$c.id 2> $T/$c.err ||
		sed 's/^/# /' $T/$c.err
done
W=$(docker inspect -f '{{.Id}}' web)
D=$(docker inspect -f '{{.Id}}' db)
WP=$(docker inspect -f '{{.State.Pid}}' web)
DP=$(docker inspect -f '{{.State.Pid}}' db)
WN=$(readlink /proc/$WP/ns/user | tr -dc 0-9)
DN=$(readlink /proc/$DP/ns/user | tr -dc 0-9)
expect "web and db in user namespaces of their own, their root host uid 100000" \
	"$(test "$WN" != "$init" && test "$DN" != "$init" && test "$WN" != "$DN" && echo own) $(awk '/^Uid:/ { print $2 }' /proc/$WP/status) $(awk '/^Uid:/ { print $2 }' /proc/$DP/status)" \
	"own 100000 100000"

# label INUM FILE: what a table's line of namespace INUM has after its
# four cells
label() {
	awk -v i="$1" '$1 == "ns" && $2 == i { for (k = 9; k <= NF; k++) printf "%s%s", $k, k < NF ? " " : ""; print "" }' "$2"
}
$UCT -b -n 1 > $T/all.txt 2> $T/all.err
expect "table: each namespace by the name docker ps shows" \
	"$(label $WN $T/all.txt | cut -d' ' -f1) $(label $DN $T/all.txt | cut -d' ' -f1)" "web db"
$UCT --json -n 1 > $T/j.json 2> /dev/null
# rowsum NS: uid 100000's row of namespace NS: its parent row, the uid
# inside and its NPROC count
rowsum() {
	row $T/j.json $1 100000 | sed -n 's/.*"parent_ns":\([0-9]*\),"parent_uid":\([0-9]*\),"ns_uid":\([0-9]*\),.*"nproc":{"value":\([0-9]*\),.*/\1 \2 \3 \4/p'
}
expect "JSON: host uid 100000 counted apart in web's and db's namespaces (root inside, 1 process each), under root's row" \
	"$(rowsum $WN), $(rowsum $DN)" "$init 0 0 1, $init 0 0 1"
expect "JSON: each namespace by its container's name" \
	"$(sed 's/{"ns":/\n{"ns":/g' $T/j.json | grep -c "^{\"ns\":$WN,\"level\":1,\"owner_uid\":.*\"container_id\":\"$W\",\"container_name\":\"web\",") $(sed 's/{"ns":/\n{"ns":/g' $T/j.json | grep -c "^{\"ns\":$DN,\"level\":1,\"owner_uid\":.*\"container_id\":\"$D\",\"container_name\":\"db\",")" \
	"1 1"
$UCT -b -n 1 --container db > $T/db.txt 2>&1
before=$fails
expect "--container db: db's namespace, not web's" \
	"$(awk '$1 == "ns" { print $2 }' $T/db.txt | grep -c "^$DN\$") $(awk '$1 == "ns" { print $2 }' $T/db.txt | grep -c "^$WN\$")" \
	"1 0"
[ $fails = $before ] || { echo "# web $WN, db $DN:"; sed 's/^/# /' $T/db.txt; }

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
