#!/bin/sh
# 5N: rootless Podman (Debian 12's podman, crun, conmon and uidmap's
# setuid newuidmap, from the engine layer that tests/host/engines.sh
# adds; without it, skipped), the case per-user-namespace counting is
# for: alice (uid 1000), no privilege, her containers in a user
# namespace of her own mapped from her subordinate range (100000:65536
# in /etc/subuid and /etc/subgid), her container root being her own
# uid. Her cgroup subtree is delegated as systemd delegates
# user@1000.service; her Podman (cgroupfs manager, vfs storage) makes a
# libpod-<id> cgroup in it for each container. web runs a sleep; db sets
# its RLIMIT_NPROC to 1 and forks once, refused: her namespace's row of
# her uid holds her Podman's pause process, two conmons and the
# containers' processes. ucounttop must split that row by the names her
# Podman gave (alice:web, alice:db: a tenant names its own containers, so
# the name says whose), 1 process each, put the refusal on db, select
# db with --container alice:db but not by its id (a claim in her subtree
# could repeat anyone's), and leave her ids out of the container series
# (KTAP).
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/json-rows.sh
UCT=${UCT:-/uct/bin/ucounttop}
WL=/uct/bin/uct-workload
T=/tmp/t5n
SVC=/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service
echo "KTAP version 1"
export PATH=/usr/sbin:/usr/bin:/sbin:/bin:$PATH
command -v podman > /dev/null 2>&1 ||
	{ echo "# no Podman in this guest: tests/host/engines.sh adds the engine layer"; exit 4; }
[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }
rm -rf $T /tmp/.local /tmp/.config /run/user/1000
mkdir -p $T/img/bin /run/user/1000 /var/tmp
chmod 1777 /var/tmp
chown 1000:1000 /run/user/1000 $T
chmod 0700 /run/user/1000
echo 'alice:100000:65536' > /etc/subuid
echo 'alice:100000:65536' > /etc/subgid
init=$(readlink /proc/self/ns/user | tr -dc 0-9)

# her delegated subtree, as systemd makes user@1000.service: root's
# slices above it, hers from it down, her session in init.scope
for c in pids memory; do
	echo +$c > /sys/fs/cgroup/cgroup.subtree_control
done
mkdir -p $SVC/init.scope
echo +pids > /sys/fs/cgroup/user.slice/cgroup.subtree_control
echo +pids > /sys/fs/cgroup/user.slice/user-1000.slice/cgroup.subtree_control
chown -R 1000:1000 $SVC
# alice ARGS...: podman ARGS as alice in her session: her uid, no
# capability, her home (passwd's: /tmp) and runtime directory
alice() {
	sh -c 'echo $$ > '$SVC'/init.scope/cgroup.procs &&
		exec env HOME=/tmp XDG_RUNTIME_DIR=/run/user/1000 USER=alice LOGNAME=alice \
		'$WL' --exec-as 1000 -- /usr/bin/podman --storage-driver vfs --cgroup-manager cgroupfs \
		--events-backend file "$@"' alice "$@"
}
cleanup() {
	alice rm -f -t 0 web db > /dev/null 2>&1
	kill $uj $ut 2> /dev/null
	wait $uj $ut 2> /dev/null
	[ -s /run/user/1000/libpod/tmp/pause.pid ] && kill "$(cat /run/user/1000/libpod/tmp/pause.pid)"
}
trap cleanup EXIT
cp /bin/busybox $WL $T/img/bin/
for a in sh sleep; do ln -s busybox $T/img/bin/$a; done
tar -C $T/img -cf $T/img.tar .
chown 1000:1000 $T/img.tar
alice info > $T/info.txt 2> $T/info.err
before=$fails
expect "podman info as alice: rootless, in a namespace mapped from her range" \
	"$(grep -c 'rootless: true' $T/info.txt) $(grep -c 'host_id: 100000' $T/info.txt)" "1 2"
[ $fails = $before ] || sed 's/^/# /' $T/info.err $T/info.txt | head -n 60
# her subtree: controllers for the containers' cgroups (hers to enable)
sh -c "echo \$\$ > $SVC/init.scope/cgroup.procs && exec $WL --exec-as 1000 -- /bin/sh \
	-c 'mkdir -p $SVC/containers && echo +pids > $SVC/cgroup.subtree_control &&
	       echo +pids > $SVC/containers/cgroup.subtree_control'"
alice import $T/img.tar uct > /dev/null 2> $T/import.err
expect "an image imported from busybox and uct-workload" "$?" 0

# ucounttop attaches first: a refusal counts for the instances attached
# when it happened
$UCT --json -d 0.2 -n 3000 > $T/live.json 2> $T/live.err &
uj=$!
$UCT -b -d 0.2 -n 3000 --uid 1000 > $T/live.txt 2> $T/livet.err &
ut=$!
waitfor 600 test -s $T/live.json
waitfor 600 grep -q NPROC $T/live.txt

# the cgroupfs manager takes no systemd slice for a parent
parent=/user.slice/user-1000.slice/user@1000.service/containers
alice run -d --name web --network none --cgroup-parent=$parent uct /bin/sleep 100000 \
	> $T/web.id 2> $T/web.err || sed 's/^/# /' $T/web.err
# db lowers its own RLIMIT_NPROC to 1, then forks: --ulimit nproc=1
# would refuse crun's clone of the container's first process already
alice run -d --name db --network none --cgroup-parent=$parent uct \
	/bin/sh -c 'ulimit -u 1 && exec /bin/uct-workload --fork-hold 0' \
	> $T/db.id 2> $T/db.err || sed 's/^/# /' $T/db.err
ready() { alice logs db 2> /dev/null | grep -q '^READY'; }
waitfor 100 ready
alice logs db > $T/db.out 2>&1
expect "db's one fork refused (EAGAIN): her row holds more than its RLIMIT_NPROC of 1" \
	"$(grep -c '^FORK REFUSED EAGAIN$' $T/db.out)" 1
W=$(alice inspect -f '{{.Id}}' web)
D=$(alice inspect -f '{{.Id}}' db)
WP=$(alice inspect -f '{{.State.Pid}}' web)
DP=$(alice inspect -f '{{.State.Pid}}' db)
PN=$(readlink /proc/$WP/ns/user | tr -dc 0-9)
expect "web and db in her one namespace, not the initial one, as her uid; each in its libpod cgroup" \
	"$(test "$PN" != "$init" && readlink /proc/$DP/ns/user | tr -dc 0-9) $(awk '/^Uid:/ { print $2 }' /proc/$WP/status) $(cut -d: -f3 /proc/$WP/cgroup) $(cut -d: -f3 /proc/$DP/cgroup)" \
	"$PN 1000 $parent/libpod-$W $parent/libpod-$D"

# the last document with the refusal: the names are looked up in it
counted() { tail -n 1 $T/live.json | grep -q "\"container_name\":\"alice:db\",\"container_owner_uid\":1000,.*\"denials\":{\"nproc\":1"; }
waitfor 600 counted
tail -n 1 $T/live.json > $T/j.json
r=$(row $T/j.json $PN 1000)
expect "JSON: her namespace's row of her uid is shared" "$(echo "$r" | grep -c '"shared":true')" 1
expect "JSON: web has its 1 process, db its 1 and the refusal" \
	"$(share "$r" $W), $(share "$r" $D)" "1 0, 1 1"
expect "JSON: each by the name her Podman gave, as hers" \
	"$(echo "$r" | grep -c "\"container_id\":\"$W\",\"container_name\":\"alice:web\",\"container_owner_uid\":1000,") $(echo "$r" | grep -c "\"container_id\":\"$D\",\"container_name\":\"alice:db\",\"container_owner_uid\":1000,")" \
	"1 1"
# the live table's last line of her row in her namespace ("uid 0": her
# uid as the namespace maps it), two refreshes later
waitfor 600 refreshed $T/live.txt NPROC $(($(grep -c NPROC $T/live.txt) + 2))
grep '^ *uid 0 .* in alice:' $T/live.txt | tail -n 1 > $T/t.txt
expect "table: the row split by name, the refusal on db" \
	"$(grep -c ' alice:db 1 (refused 1)' $T/t.txt) $(grep -cE ' alice:web 1(,|$)' $T/t.txt)" "1 1"
$UCT -b -n 1 --container alice:db > $T/db.txt 2>&1
expect "--container alice:db: her namespace" \
	"$(awk '$1 == "ns" { print $2 }' $T/db.txt | grep -c "^$PN\$")" 1
$UCT -b -n 1 --container "$(echo $D | cut -c1-12)" > $T/dbid.txt 2>&1
expect "--container with db's id: nothing (her id is her claim)" \
	"$(awk '$1 == "ns" { print $2 }' $T/dbid.txt | grep -c "^$PN\$")" 0
$UCT --openmetrics -n 1 > $T/om.txt 2> $T/om.err
expect "OpenMetrics: no container series of her ids, her namespace's info without one" \
	"$(grep '^ucounttop_container_' $T/om.txt | grep -c "$W\|$D") $(grep -c "^ucounttop_namespace_info{ns=\"$PN\"" $T/om.txt)" "0 1"

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
