#!/bin/sh
# 5G: what a tenant controls cannot make ucounttop, running as root, read
# for it or name it as someone else (KTAP). kuid 1000 (alice) makes user
# and mount namespaces of its own (unshare -Urm, its uid 0 = kuid 1000):
#  A bind-mounts root's 0600 secret over its /etc/passwd: the secret's
#    first field must never be shown as its uid 0's name (ucounttop reads
#    only files owned by a uid the namespace maps);
#  B bind-mounts a procfs file it owns (its own process's comm, set to a
#    passwd line) there: never read (no procfs or sysfs file is);
#  C is moved into docker-<VICTIM>.scope, which alice made in a cgroup
#    subtree delegated to her (owned by her): never shown, exported or
#    selected as container VICTIM, while D, in a docker-<REAL>.scope that
#    root made, is container REAL;
#  E is moved into docker-REAL.scope/docker-<VICTIM>.scope, as a rootful
#    container's root can make (root-owned): container REAL, the outer.
. /uct/tests/lib/ktap.sh
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5g
CG=/sys/fs/cgroup
VICTIM=5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a
REAL=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef
echo "KTAP version 1"
[ -x "$UCT" ] || { echo "# missing $UCT"; exit 4; }
rm -rf $T
mkdir -p $T/tenant
chmod 0755 $T
# where the tenants write their pids: alice's
chown 1000:1000 $T/tenant
printf 'topsecret:x:0:0::/:/bin/sh\n' > $T/secret
chmod 0600 $T/secret

pids=
cleanup() {
	# every process of the tenants' namespaces (B's loop is not one of $pids)
	for d in /proc/[0-9]*; do
		i=$(readlink $d/ns/user 2> /dev/null | tr -dc 0-9)
		for t in $NA $NB $NC $ND $NE; do
			[ "$i" = "$t" ] && kill "${d#/proc/}" 2> /dev/null
		done
	done
	for p in $pids; do kill "$p" 2> /dev/null; done
	for p in $pids; do wait "$p" 2> /dev/null; done
	rmdir $CG/t5g-tenant/docker-$VICTIM.scope $CG/t5g-tenant \
		$CG/t5g-root/docker-$REAL.scope/docker-$VICTIM.scope $CG/t5g-root/docker-$REAL.scope \
		$CG/t5g-root 2> /dev/null
}
trap cleanup EXIT

# tenant NAME: run $T/NAME.sh as alice in namespaces of her own; it
# writes its namespace's oldest pid to $T/tenant/NAME.pid when set up
tenant() {
	su alice -s /bin/sh -c "exec unshare -Urm sh $T/$1.sh" > $T/$1.out 2>&1 &
	pids="$pids $!"
	if ! waitfor 300 test -s $T/tenant/$1.pid; then
		fail "tenant $1 set up"
		sed 's/^/# /' $T/$1.out
		return 1
	fi
	eval "P$1=\$(cat $T/tenant/$1.pid)"
	eval "N$1=\$(readlink /proc/\$P$1/ns/user | tr -dc 0-9)"
}
echo "mount --bind $T/secret /etc/passwd && echo \$\$ > $T/tenant/A.pid && exec sleep 600" > $T/A.sh
# B: a shell whose comm is a passwd line, kept alive (no exec), then its
# comm file bound over /etc/passwd
{
	echo "sh -c 'printf p:x:0:0::: > /proc/self/comm; while :; do sleep 1; done' &"
	echo 'k=$!; i=0'
	echo 'while [ "$(cat /proc/$k/comm)" != p:x:0:0::: ] && [ $i -lt 300 ]; do usleep 100000; i=$((i + 1)); done'
	echo "mount --bind /proc/\$k/comm /etc/passwd && echo \$\$ > $T/tenant/B.pid && exec sleep 600"
} > $T/B.sh
for k in C D E; do
	echo "echo \$\$ > $T/tenant/$k.pid && exec sleep 600" > $T/$k.sh
done
chmod 0644 $T/*.sh
for k in A B C D E; do tenant $k; done
expect "five tenant namespaces, each its own" \
	"$(echo "$NA $NB $NC $ND $NE" | tr ' ' '\n' | sort -u | grep -c .)" 5
expect "A's /etc/passwd is root's secret, which A cannot read" \
	"$(cat /proc/$PA/root/etc/passwd) $(su alice -s /bin/sh -c "cat /proc/$PA/root/etc/passwd" 2>&1 | grep -c 'Permission denied')" \
	"topsecret:x:0:0::/:/bin/sh 1"
expect "B's /etc/passwd is its comm on procfs, reading 'p:x:0:0:::'" \
	"$(cat /proc/$PB/root/etc/passwd)" "p:x:0:0:::"

# C in a cgroup alice made in her delegated subtree, D in root's
mkdir $CG/t5g-tenant $CG/t5g-root
chown 1000:1000 $CG/t5g-tenant $CG/t5g-tenant/cgroup.procs
su alice -s /bin/sh -c "mkdir $CG/t5g-tenant/docker-$VICTIM.scope"
mkdir $CG/t5g-root/docker-$REAL.scope
echo "$PC" > $CG/t5g-tenant/docker-$VICTIM.scope/cgroup.procs
echo "$PD" > $CG/t5g-root/docker-$REAL.scope/cgroup.procs
mkdir $CG/t5g-root/docker-$REAL.scope/docker-$VICTIM.scope
echo "$PE" > $CG/t5g-root/docker-$REAL.scope/docker-$VICTIM.scope/cgroup.procs
expect "C is in alice's docker-VICTIM.scope (hers), D in root's docker-REAL.scope" \
	"$(cut -d: -f3 /proc/$PC/cgroup) $(stat -c %u $CG/t5g-tenant/docker-$VICTIM.scope) $(cut -d: -f3 /proc/$PD/cgroup) $(stat -c %u $CG/t5g-root/docker-$REAL.scope)" \
	"/t5g-tenant/docker-$VICTIM.scope 1000 /t5g-root/docker-$REAL.scope 0"

$UCT --json -n 1 > $T/j.json 2> $T/j.err
expect "ucounttop --json -n 1 exits 0" "$?" 0
sed 's/{"ns":/\n{"ns":/g' $T/j.json > $T/j.lines
# user NS: the "user" of namespace NS's row of kuid 1000 (its uid 0)
user() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"uid\":1000," $T/j.lines | sed -n 's/.*"ns_uid":0,"user":\([^,]*\),.*/\1/p'; }
# cid NS: the container_id of namespace NS's object
cid() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"owner_uid\":" $T/j.lines | sed -n 's/.*"container_id":\([^,}]*\).*/\1/p'; }
expect "A: root's secret is not read for A (uid 0 has no name)" "$(user $NA)" null
expect "A: the secret is nowhere in the document" "$(grep -c topsecret $T/j.json)" 0
expect "B: the procfs file is not read (uid 0 has no name)" "$(user $NB)" null
expect "C: not container VICTIM (alice made that cgroup)" "$(cid $NC)" null
expect "D: container REAL (root made that cgroup)" "$(cid $ND)" "\"$REAL\""
expect "E: container REAL, the outer (root-owned docker-VICTIM.scope inside it or not)" \
	"$(cid $NE)" "\"$REAL\""

$UCT --openmetrics -n 1 > $T/om.txt 2>&1
expect "OpenMetrics: VICTIM's id in no label, REAL's on D" \
	"$(grep -c "$VICTIM" $T/om.txt) $(grep -c "^ucounttop_namespace_info{ns=\"$ND\".*container_id=\"$REAL\"" $T/om.txt)" \
	"0 1"
$UCT -b -n 1 --container "$(echo $VICTIM | cut -c1-12)" > $T/victim.txt 2>&1
expect "--container VICTIM: C's namespace not selected" "$(grep -c "^ *ns $NC " $T/victim.txt)" 0
$UCT -b -n 1 --container "$(echo $REAL | cut -c1-12)" > $T/real.txt 2>&1
expect "--container REAL: D's namespace selected" "$(grep -c "^ *ns $ND " $T/real.txt)" 1

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
