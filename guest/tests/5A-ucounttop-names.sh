#!/bin/sh
# 5A: uids as their namespaces see them (KTAP). uct-workload
# --names: kuid 1000 creates N1 and is uid 2000 in it ("2000 1000 1"),
# creates N2 there and is uid 3000 in it ("3000 2000 1"); kuid 1000 also
# creates N3 and writes no map (unmapped); root creates N4, whose map has 7
# extents (more than the 5 held inline: read from forward[]), and is uid 6
# = kuid 5000 in it. The table must name each row and owner as the
# namespace (its parent, for an owner) maps it, --kuid the global kuids,
# --uid filter by kuid; JSON must keep uid the kuid and carry ns_uid and
# owner_ns_uid, equal to what getuid() returns in there. Also the unit
# labels and the legend under the header, and --pid's chain. User names
# (item 2): each uid named by its own namespace's passwd file - the
# guest's /etc/passwd for the initial namespace (alice 1000, bob 2000),
# for N1 the one in the root its process chrooted to (uid 2000 is n1-app
# there: bob would be the guest's name, the wrong one; its etc/passwd is
# an absolute link that must resolve in there), the guest's again for N2
# (nobody names 3000) and N4 (nor 6); N3's unmapped uid never gets one.
# Table, --kuid (the kuids' names in the initial namespace), JSON "user",
# OpenMetrics ucounttop_user_info, and a file that changes between two
# --listen scrapes.
. /uct/tests/lib/ktap.sh
. /uct/tests/lib/names-workload.sh
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
T=/tmp/t5a
mkdir -p $T
echo "KTAP version 1"

[ -x "$UCT" ] && [ -x "$WL" ] || { echo "# missing $UCT or $WL"; exit 4; }

start_names_workload
# NAMES name inum level kuid uid-inside pid owner-kuid owner-in-parent
sed 's/^/# /' $T/wl.out
nm() { awk -v k="$1" -v f="$2" '$1 == "NAMES" && $2 == k { print $f }' $T/wl.out; }
N1=$(nm N1 3) N2=$(nm N2 3) N3=$(nm N3 3) N4=$(nm N4 3)
expect "getuid() inside N1, N2, N4 (what the maps say)" \
	"$(nm N1 6) $(nm N2 6) $(nm N4 6)" "2000 3000 6"
expect "N4's uid_map has 7 extents (forward[])" \
	"$(wc -l < /proc/$(nm N4 7)/uid_map)" 7

# table_names FILE: each table line's name - "ns INUM Llevel oOWNER" or
# "uid UID" - after the header and its legend
table_names() {
	awk 'f && NF { if ($1 == "ns") print $1, $2, $3, $4; else print $1, $2 }
	     /^\(ns lines:/ { f = 1 }' "$1"
}

$UCT -b -n 1 > $T/all.txt 2> $T/all.err
expect "ucounttop -b -n 1 exits 0" "$?" 0
expect "batch view: a row 'uid 2000' (kuid 1000 in N1)" \
	"$(grep -c '^ *uid 2000 ' $T/all.txt)" 1
expect "batch view: a row 'uid 3000' (kuid 1000 in N2)" \
	"$(grep -c '^ *uid 3000 ' $T/all.txt)" 1
hdr=$(grep -A1 '^NAME ' $T/all.txt)
expect "header: byte columns labelled, then the legend" \
	"$(echo "$hdr" | sed -n '1s/^NAME  *\(NPROC\)  *\(MSGQUEUE(B)\)  *\(SIGPENDING\)  *\(MEMLOCK(B)\)  *\(DENY FLAG\).*/\1 \2 \3 \4 \5/p'; echo "$hdr" | sed -n 2p)" \
	"NPROC MSGQUEUE(B) SIGPENDING MEMLOCK(B) DENY FLAG
(ns lines: creator row/namespace max; uid lines: value[+change]/limit)"

$UCT -b -n 1 --ns $N1 > $T/n1.txt 2>&1
expect "--ns N1: N1 owned by 1000 (as init maps it), uid 2000, N2 owned by 2000 (as N1 maps it), uid 3000" \
	"$(table_names $T/n1.txt)" "ns $N1 L1 o1000
uid 2000
ns $N2 L2 o2000
uid 3000"

$UCT -b -n 1 --ns $N3 > $T/n3.txt 2>&1
expect "--ns N3 (no uid_map): its row is unmapped, shown as -(k1000)" \
	"$(table_names $T/n3.txt)" "ns $N3 L1 o1000
uid -(k1000)"

$UCT -b -n 1 --ns $N4 > $T/n4.txt 2>&1
expect "--ns N4 (7 extents): kuid 5000 is uid 6, owner root" \
	"$(table_names $T/n4.txt)" "ns $N4 L1 o0
uid 6"

$UCT -b -n 1 --ns $N1 --kuid > $T/kuid.txt 2>&1
expect "--kuid: the global kuids, rows and owners" \
	"$(table_names $T/kuid.txt)" "ns $N1 L1 o1000
uid 1000
ns $N2 L2 o1000
uid 1000"

$UCT -b -n 1 --ns $N1 --uid 1000 > $T/uid1000.txt 2>&1
expect "--uid 1000 is the kuid: both rows, shown as 2000 and 3000" \
	"$(table_names $T/uid1000.txt | grep '^uid')" "uid 2000
uid 3000"
$UCT -b -n 1 --ns $N1 --uid 2000 > $T/uid2000.txt 2>&1
expect "--uid 2000 (an ns uid, no kuid of ours): nothing" \
	"$(table_names $T/uid2000.txt)" ""

# --pid: the process in N2 charges its row and, up the tree, the rows
# that created N2 and N1
init=$(readlink /proc/self/ns/user | tr -dc 0-9)
$UCT -b -n 1 --pid "$(nm N2 7)" > $T/pid.txt 2>&1
expect "--pid (the process in N2): its row, then the creator rows up to the initial namespace" \
	"$(table_names $T/pid.txt)" "ns $init L0 init
uid 1000
ns $N1 L1 o1000
uid 2000
ns $N2 L2 o2000
uid 3000"
$UCT -b -n 1 --pid 4194304 > $T/nopid.txt 2>&1
expect "--pid of no process: said on the summary line, no row" \
	"$(grep -c 'pid 4194304 (no such process)' $T/nopid.txt) $(table_names $T/nopid.txt | wc -l)" "1 0"

$UCT --json -n 1 > $T/j.json 2> $T/j.err
expect "ucounttop --json -n 1 exits 0" "$?" 0
sed 's/{"ns":/\n{"ns":/g' $T/j.json > $T/j.lines
row() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"uid\":$2," $T/j.lines; }
nsobj() { grep "^{\"ns\":$1,\"level\":[0-9]*,\"owner_uid\":" $T/j.lines; }
key() { sed -n "s/.*\"$1\":\([0-9a-z]*\)[,}].*/\1/p"; }
expect "JSON rows: ns_uid of (init,1000) (N1,1000) (N2,1000) (N3,1000) (N4,5000)" \
	"$(row $init 1000 | key ns_uid) $(row $N1 1000 | key ns_uid) $(row $N2 1000 | key ns_uid) $(row $N3 1000 | key ns_uid) $(row $N4 5000 | key ns_uid)" \
	"1000 2000 3000 null 6"
expect "JSON rows: ns_uid is what getuid() returns inside N1, N2 and N4" \
	"$(row $N1 1000 | key ns_uid) $(row $N2 1000 | key ns_uid) $(row $N4 5000 | key ns_uid)" \
	"$(nm N1 6) $(nm N2 6) $(nm N4 6)"
expect "JSON rows: uid stays the kuid, parent links unchanged" \
	"$(row $N2 1000 | sed -n 's/^{"ns":[0-9]*,"level":\([0-9]*\),"uid":\([0-9]*\),"parent_ns":\([0-9]*\),"parent_uid":\([0-9]*\),"ns_uid":.*/\1 \2 \3 \4/p')" \
	"2 1000 $N1 1000"
expect "JSON namespaces: owner_ns_uid of N1 N2 N3 N4" \
	"$(nsobj $N1 | key owner_ns_uid) $(nsobj $N2 | key owner_ns_uid) $(nsobj $N3 | key owner_ns_uid) $(nsobj $N4 | key owner_ns_uid)" \
	"1000 2000 1000 0"
expect "JSON namespaces: owner_uid stays the kuid" \
	"$(nsobj $N2 | key owner_uid) $(nsobj $N4 | key owner_uid)" "1000 0"

# ---- user names, as each namespace's own passwd file gives them ----
R=$(awk '$1 == "ROOT" && $2 == "N1" { print $3 }' $T/wl.out)
expect "N1's process runs in a root of its own (/proc/PID/root), N2's in the guest's" \
	"$(readlink /proc/$(nm N1 7)/root) $(readlink /proc/$(nm N2 7)/root)" "$R /"
# table_users FILE: "uid UID (NAME)", or "uid UID" without a name, per uid line
table_users() {
	awk 'f && $1 == "uid" { if ($3 ~ /^\(/) print $1, $2, $3; else print $1, $2 }
	     /^\(ns lines:/ { f = 1 }' "$1"
}
expect "initial namespace: uid 0 (root) and uid 1000 (alice), from /etc/passwd" \
	"$(grep -c '^  uid 0 (root) ' $T/all.txt) $(grep -c '^  uid 1000 (alice) ' $T/all.txt)" "1 1"
expect "--ns N1: uid 2000 (n1-app) from N1's own root, uid 3000 (N2, the guest's root) unnamed" \
	"$(table_users $T/n1.txt)" "uid 2000 (n1-app)
uid 3000"
expect "--ns N3: the unmapped uid has no name" "$(table_users $T/n3.txt)" "uid -(k1000)"
expect "--ns N4: uid 6, which the guest's /etc/passwd does not name" \
	"$(table_users $T/n4.txt)" "uid 6"
expect "--kuid: the kuids named by the initial namespace's file" \
	"$(table_users $T/kuid.txt)" "uid 1000 (alice)
uid 1000 (alice)"
user() { sed -n 's/.*,"user":"\([^"]*\)",.*/\1/p'; }
expect "JSON rows: user of (init,0) (init,1000) (N1,1000) (N2,1000) (N3,1000) (N4,5000)" \
	"$(row $init 0 | user),$(row $init 1000 | user),$(row $N1 1000 | user),$(row $N2 1000 | user),$(row $N3 1000 | user),$(row $N4 5000 | user)" \
	"root,alice,n1-app,,,"
expect "JSON rows: no name is a null" \
	"$(row $N2 1000 | grep -c '"ns_uid":3000,"user":null,') $(row $N3 1000 | grep -c '"ns_uid":null,"user":null,')" \
	"1 1"
$UCT --openmetrics -n 1 > $T/om.txt 2>&1
expect "OpenMetrics: ucounttop_user_info for (init,1000) and (N1,1000), none for N2, N3, N4" \
	"$(grep -c "^ucounttop_user_info{ns=\"$init\",kuid=\"1000\",user=\"alice\"} 1\$" $T/om.txt) $(grep -c "^ucounttop_user_info{ns=\"$N1\",kuid=\"1000\",user=\"n1-app\"} 1\$" $T/om.txt) $(grep -cE "^ucounttop_user_info\\{ns=\"($N2|$N3|$N4)\"" $T/om.txt)" \
	"1 1 0"
expect "OpenMetrics: no user label on the counters" "$(grep -v '^ucounttop_user_info{' $T/om.txt | grep -c 'user=')" 0

# N1's file replaced as useradd replaces one, between two scrapes: read
# again, the new name in the second
URL=http://127.0.0.1:9466/metrics
$UCT --listen 127.0.0.1:9466 -d 0.01 2> $T/listen.err &
u=$!
if waitfor 600 grep -q '^ucounttop: serving' $T/listen.err; then
	timeout 60 wget -q -O $T/s1 $URL
	printf 'root:x:0:0::/:/bin/sh\nn1-new:x:2000:2000::/:/bin/sh\n' > $R/etc/passwd.n1+
	chown 1000:1000 $R/etc/passwd.n1+
	mv $R/etc/passwd.n1+ $R/etc/passwd.n1
	timeout 60 wget -q -O $T/s2 $URL
fi
kill $u 2>/dev/null
wait $u
expect "--listen: N1's uid 2000 is n1-app, then n1-new once its file changed" \
	"$(grep -c "user_info{ns=\"$N1\",kuid=\"1000\",user=\"n1-app\"}" $T/s1) $(grep -c "user_info{ns=\"$N1\",kuid=\"1000\",user=\"n1-new\"}" $T/s2) $(grep -c 'n1-app' $T/s2)" \
	"1 1 0"

cleanup
trap - EXIT
echo "1..$n"
[ "$fails" -eq 0 ]
