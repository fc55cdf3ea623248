#!/bin/sh
# 5J: a tenant's file system that never answers cannot stop ucounttop
# (KTAP). kuid 1000 (alice), in user and mount namespaces of her own
# (unshare -Urm), mounts uct-fuse-stall - a FUSE daemon that holds every
# LOOKUP - as the top layer of a read-only overlay on her /etc (O1..O6),
# as an unprivileged user may wherever /dev/fuse is 0666, the usual mode.
# FUSE alone refuses processes outside the mounter's namespace (F: the
# daemon on /etc itself, root gets EACCES at once), but the overlay looks
# its layers up with the mounter's credentials: resolving etc/passwd in
# O waits in the kernel, deaf to SIGKILL, until the daemon answers. N
# is a tenant with a passwd file of her own naming her uid 0 "ntenant".
# ucounttop reads tenants' files in a helper with a 0.25 s deadline
# (cli/top/pwreader.h):
#  1. the live view, O1 O2 F N: every refresh ends, N is named, O1 and O2
#     time out once each and are quarantined, two readers stuck;
#  2. --listen, with O3..O6 too: every scrape is answered; 4 readers at
#     most are left stuck (then no tenant's file is read), and SIGTERM
#     ends ucounttop;
#  3. once the daemons are gone, no reader is left.
. /uct/tests/lib/ktap.sh
UCT=${UCT:-/uct/bin/ucounttop}
STALL=/uct/bin/uct-fuse-stall
T=/tmp/t5j
PORT=9467
echo "KTAP version 1"
[ -x "$UCT" ] && [ -x "$STALL" ] || { echo "# missing $UCT or $STALL"; exit 4; }
[ -c /dev/fuse ] || { echo "1..0 # SKIP no /dev/fuse: this kernel has no FUSE"; exit 4; }
grep -qw overlay /proc/filesystems || modprobe overlay 2> /dev/null
grep -qw overlay /proc/filesystems || { echo "1..0 # SKIP no overlayfs on this kernel"; exit 4; }
rm -rf $T
mkdir -p $T/tenant
chmod 0755 $T
chown 1000:1000 $T/tenant
# what udev gives it on a distribution
chmod 0666 /dev/fuse
printf 'ntenant:x:0:0::/:/bin/sh\n' > $T/tenant/npasswd
chown 1000:1000 $T/tenant/npasswd

pids=
ucpid=
# readers: stuck readers, ucounttop's helpers (forks of it, so named
# ucounttop) waiting in the kernel (state D)
readers() {
	for d in /proc/[0-9]*; do
		[ "$(cut -d' ' -f2,3 $d/stat 2> /dev/null)" = "(ucounttop-help) D" ] && echo "${d#/proc/}"
	done
}
no_readers() { [ -z "$(readers)" ]; }
cleanup() {
	[ -n "$ucpid" ] && kill -KILL $ucpid 2> /dev/null
	for p in $pids; do kill -KILL "$p" 2> /dev/null; done
	for p in $pids; do wait "$p" 2> /dev/null; done
}
trap cleanup EXIT

# tenant NAME CMD...: CMD as alice in namespaces of her own; it writes
# its pid to $T/tenant/NAME.pid when set up
tenant() {
	name=$1
	shift
	su alice -s /bin/sh -c "exec unshare -Urm $*" > $T/$name.out 2>&1 &
	pids="$pids $!"
	if ! waitfor 300 test -s $T/tenant/$name.pid; then
		fail "tenant $name set up"
		sed 's/^/# /' $T/$name.out
		return 1
	fi
	eval "P$name=\$(cat $T/tenant/$name.pid)"
	eval "N$name=\$(readlink /proc/\$P$name/ns/user | tr -dc 0-9)"
}
echo "mount --bind $T/tenant/npasswd /etc/passwd && echo \$\$ > $T/tenant/N.pid && exec sleep 600" > $T/N.sh
tenant O1 $STALL --overlay /etc $T/tenant/O1.pid
tenant O2 $STALL --overlay /etc $T/tenant/O2.pid
tenant F $STALL /etc $T/tenant/F.pid
tenant N sh $T/N.sh
# stalled: a lookup there by root does not end (bounded by timeout -s KILL,
# which does not end it either: the daemon's lookup count says it waited)
timeout -s KILL 2 cat /proc/$PO1/root/etc/passwd > /dev/null 2>&1 &
waitfor 50 grep -q '^lookups 1$' $T/O1.out
expect "O1: root's lookup of etc/passwd is held by the tenant's daemon" \
	"$(grep -c '^lookups' $T/O1.out)" 1
timeout -s KILL 10 cat /proc/$PF/root/etc/passwd > $T/f.cat 2>&1
expect "F: FUSE alone refuses root at once (EACCES), its daemon never asked" \
	"$? $(grep -c 'Permission denied' $T/f.cat) $(grep -c '^lookups' $T/F.out)" "1 1 0"
expect "N: its own passwd file" "$(cat /proc/$PN/root/etc/passwd)" "ntenant:x:0:0::/:/bin/sh"

# ---- 1. the live view: four refreshes, each ends
timeout -s KILL 60 $UCT --json -n 4 -d 1 > $T/j.json 2> $T/j.err
expect "live view: exit 0, four documents (timeout -s KILL 60 did not have to end it)" \
	"$? $(grep -c '"iteration"' $T/j.json)" "0 4"
tail -n 1 $T/j.json | sed 's/{"ns":/\n{"ns":/g' > $T/j.lines
user() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"uid\":1000," $T/j.lines | sed -n 's/.*"ns_uid":0,"user":\([^,]*\),.*/\1/p'; }
jstat() { tail -n 1 $T/j.json | sed -n "s/.*\"$1\":\([0-9]*\).*/\1/p"; }
expect "live view: N's uid 0 is ntenant" "$(user $NN)" '"ntenant"'
expect "live view: O1, O2 and F have no names" "$(user $NO1) $(user $NO2) $(user $NF)" "null null null"
expect "live view: O1 and O2 timed out once each, are quarantined, their two readers stuck" \
	"$(jstat passwd_timeouts) $(jstat passwd_quarantined) $(jstat passwd_readers_stuck)" "2 2 2"
expect "live view: the quarantined were not asked again (passwd_later > 0)" \
	"$([ "$(jstat passwd_later)" -gt 0 ] && echo yes)" yes
expect "the stuck readers outlive ucounttop, waiting on the daemons: two" \
	"$(readers | wc -l)" 2

# ---- 2. --listen, with six stalled tenants
for k in 3 4 5 6; do tenant O$k $STALL --overlay /etc $T/tenant/O$k.pid; done
$UCT --listen 127.0.0.1:$PORT -d 0.5 > /dev/null 2> $T/l.err &
ucpid=$!
waitfor 600 grep -q '^ucounttop: serving http://' $T/l.err
answered=0
for i in 1 2 3 4 5 6 7 8; do
	timeout 30 wget -q -O $T/m$i.txt http://127.0.0.1:$PORT/metrics && answered=$((answered + 1))
	sleep 0.6
done
expect "--listen: 8 of 8 scrapes answered" "$answered" 8
m() { sed -n "s/^$1 \([0-9]*\)$/\1/p" $T/m8.txt; }
expect "--listen: 4 timeouts and 4 readers stuck at most, tenants' files then not read" \
	"$(m ucounttop_passwd_timeouts_total) $(m ucounttop_passwd_readers_stuck)" "4 4"
expect "--listen: namespaces quarantined in the last scrape" \
	"$(grep -c '^ucounttop_passwd_quarantined [1-9]' $T/m8.txt)" 1
kill -TERM $ucpid
waitfor 100 sh -c "! kill -0 $ucpid 2> /dev/null"
expect "--listen: SIGTERM ends it within 10 s" "$(kill -0 $ucpid 2> /dev/null && echo running || echo ended)" ended
wait $ucpid 2> /dev/null
ucpid=

# ---- 3. the daemons gone, the readers' lookups fail and they end
cleanup
pids=
waitfor 100 no_readers
expect "no reader is left once the daemons are gone" "$(readers | wc -l)" 0
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
