#!/bin/sh
# 5H: what ucounttop keeps of root's privileges once it has loaded and
# attached, read from /proc/PID/status of each of its processes in each
# mode (KTAP): the live view and --listen are two, the main process as
# user ucounttop (--run-as) with no capability in any set, NoNewPrivs and
# a seccomp filter, and its reader (and the reader's helpers) as root
# with CAP_DAC_READ_SEARCH and CAP_SYS_PTRACE alone (bounding set too),
# NoNewPrivs and a filter of its own; trace keeps nothing (uid 0, a
# seccomp filter), check CAP_KILL and CAP_SYSLOG while CMD runs with
# root's; all with NoNewPrivs. And check
# --user: CMD as another user, with none of root's capabilities, still
# ended by --timeout, and unable to reach root's terminal (no TIOCSTI,
# no escape sequences); an unknown user is a usage error before
# anything is loaded.
. /uct/tests/lib/ktap.sh
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5h
echo "KTAP version 1"
[ -x "$UCT" ] || { echo "# missing $UCT"; exit 4; }
rm -rf $T
mkdir -p $T
# CMD writes here as alice and nobody too
chmod 1777 $T
grep -q ' /sys/fs/bpf bpf ' /proc/mounts || mount -t bpf bpf /sys/fs/bpf

# caps PID: its CapInh CapPrm CapEff CapBnd CapAmb NoNewPrivs, one line
caps() {
	awk '/^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):/ { printf "%s%s=%s", n++ ? " " : "", $1, $2 }
	     END { print "" }' /proc/$1/status
}
# hex of a capability set: the bits given
capset() {
	v=0
	for c in "$@"; do v=$((v | (1 << c))); done
	printf '%016x' $v
}
KEEP_TOP=$(capset 2 19)		# CAP_DAC_READ_SEARCH, CAP_SYS_PTRACE
KEEP_CHECK=$(capset 5 34)	# CAP_KILL, CAP_SYSLOG
NONE=0000000000000000
ROOT=$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status)
want() { echo "CapInh:=$NONE CapPrm:=$1 CapEff:=$1 CapBnd:=$2 CapAmb:=$NONE NoNewPrivs:=1"; }

# who PID: its Uid, Gid, capability sets, NoNewPrivs and Seccomp, one line
who() {
	awk '/^(Uid|Gid|CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):/ {
		v = $2; for (i = 3; i <= NF; i++) v = v "," $i
		printf "%s%s=%s", n++ ? " " : "", $1, v }
	     END { print "" }' /proc/$1/status
}
# whose ID PID...: "who" of each, as ID=... lines
whose() {
	id=$1
	shift
	for p in "$@"; do echo "$id: $(who $p)"; done
}
kids() {	# kids PPID COMM
	for d in /proc/[0-9]*; do
		[ "$(awk '/^PPid:/ { print $2 }' $d/status 2> /dev/null)" = "$1" ] &&
			[ "$(cat $d/comm 2> /dev/null)" = "$2" ] && echo "${d#/proc/}"
	done
}
# A kernel built without CONFIG_SECCOMP_FILTER (the stable trees'
# guests) takes no filter: ucounttop says so once and runs without one
if grep -q '^Seccomp_filters:' /proc/self/status; then
	FILTER=" Seccomp:=2" WARNED=0
else
	FILTER= WARNED=1
fi
MAIN_WHO="Uid:=999,999,999,999 Gid:=999,999,999,999 CapInh:=$NONE CapPrm:=$NONE CapEff:=$NONE CapBnd:=$NONE CapAmb:=$NONE NoNewPrivs:=1$FILTER"
READER_WHO="Uid:=0,0,0,0 Gid:=0,0,0,0 CapInh:=$NONE CapPrm:=$KEEP_TOP CapEff:=$KEEP_TOP CapBnd:=$KEEP_TOP CapAmb:=$NONE NoNewPrivs:=1$FILTER"
NO_FILTER='^ucounttop: kernel without CONFIG_SECCOMP_FILTER: no system call allowlist$'

# run NAME WAITFOR-PATTERN ARGS...: start ucounttop, wait until its
# stderr or stdout says PATTERN, then its status (and, for the live view
# and --listen, its reader's and the reader's helpers'); stopped with
# SIGTERM
run() {
	name=$1 pat=$2
	shift 2
	$UCT "$@" > $T/$name.out 2> $T/$name.err &
	u=$!
	if waitfor 600 grep -q "$pat" $T/$name.out $T/$name.err; then
		caps $u > $T/$name.caps
		whose main $u > $T/$name.who
		r=$(kids $u ucounttop-read)
		[ -n "$r" ] && whose reader $r >> $T/$name.who &&
			whose helper $(kids $r ucounttop-help) >> $T/$name.who
	else
		echo "(never said '$pat')" > $T/$name.caps
		sed 's/^/# /' $T/$name.err
	fi
	kill $u 2> /dev/null
	wait $u
	echo $? > $T/$name.rc
}
expect "we start as root, with all of root's capabilities" \
	"$(caps $$ | sed 's/CapBnd.*//')" "CapInh:=$NONE CapPrm:=$ROOT CapEff:=$ROOT "

# namespaces of other users: the views read their passwd files and
# cgroups, through helpers
/uct/bin/uct-workload > $T/wl.out 2>&1 &
wl=$!
waitfor 600 grep -q '^READY' $T/wl.out || echo "# uct-workload never said READY"
run top 'NPROC' -b -d 1 -n 600
expect "live view (-b), after its first refresh: the main process is ucounttop (999) with no capability, NoNewPrivs, a seccomp filter" \
	"$(grep '^main:' $T/top.who)" "main: $MAIN_WHO"
expect "live view: its reader is root with CAP_DAC_READ_SEARCH and CAP_SYS_PTRACE alone, NoNewPrivs, a seccomp filter" \
	"$(grep '^reader:' $T/top.who)" "reader: $READER_WHO"
expect "live view: the reader's helper (it read passwd files) the same" \
	"$(grep '^helper:' $T/top.who | sort -u)" "helper: $READER_WHO"
expect "live view: nothing else of ucounttop's runs" "$(wc -l < $T/top.who)" 3
expect "live view: a kernel without seccomp filters said once (this one has them: $((1 - WARNED)))" \
	"$(grep -c "$NO_FILTER" $T/top.err) $(grep -ci 'seccomp' $T/top.err)" "$WARNED $WARNED"
expect "live view: SIGTERM still ends it with 0, reader and helpers gone" \
	"$(cat $T/top.rc) $(grep -l '^ucounttop-' /proc/[0-9]*/comm 2> /dev/null | wc -l)" "0 0"

run listen '^ucounttop: serving' --listen 127.0.0.1:9467
expect "--listen, serving: the main process as the live view's" \
	"$(grep '^main:' $T/listen.who)" "main: $MAIN_WHO"
expect "--listen: its reader as the live view's" \
	"$(grep '^reader:' $T/listen.who)" "reader: $READER_WHO"

# SIGHUP: the web configuration read again, root's file, 0600, which the
# main process cannot open: the reader reads it and hands it over. Basic
# auth, alice's password old, then new (bcrypt cost 4: a fast test)
OLD='$2b$04$V9jdn7T4wUJAzTZb5WOJfe2HZEJLmUCyBOLzj0g56uVFcstfYAA/y'
NEW='$2b$04$gz.L78aVFL2pVPZ4mmhI3OBQP2Cr1FFboPlATXn7ZwcNzrCbqXv4m'
umask 077
printf 'basic_auth_users:\n  alice: %s\n' "$OLD" > $T/web.yml
umask 022
$UCT --listen 127.0.0.1:9471 --web.config.file $T/web.yml 2> $T/web.err &
w=$!
scrape() { timeout 30 wget -q -O /dev/null "http://alice:$1@127.0.0.1:9471/metrics" 2> /dev/null && echo 200 || echo no; }
if waitfor 600 grep -q '^ucounttop: serving' $T/web.err; then
	before="$(scrape old) $(scrape new)"
	umask 077
	printf 'basic_auth_users:\n  alice: %s\n' "$NEW" > $T/web.yml.new
	umask 022
	mv $T/web.yml.new $T/web.yml
	kill -HUP $w
	i=0
	while [ "$(scrape new)" != 200 ] && [ $i -lt 50 ]; do usleep 200000; i=$((i + 1)); done
	after="$(scrape old) $(scrape new)"
else
	before="(never served)" after=
	sed 's/^/# /' $T/web.err
fi
expect "SIGHUP reloads a 0600 root-owned web configuration through the reader: old password, then new" \
	"$(stat -c '%a %U' $T/web.yml) $before, $after" "600 root 200 no, no 200"
kill $w 2> /dev/null
wait $w

run alice '^ucounttop: serving' --listen 127.0.0.1:9469 --run-as alice
expect "--run-as alice: the main process is uid and gid 1000" \
	"$(grep '^main:' $T/alice.who | cut -d' ' -f2-3)" "Uid:=1000,1000,1000,1000 Gid:=1000,1000,1000,1000"
for bad in no-such-user root; do
	$UCT --run-as $bad -b -n 1 > $T/runas.out 2>&1
	expect "--run-as $bad: usage error (2) before loading, naming it" \
		"$? $(grep -c "^ucounttop: --run-as $bad: " $T/runas.out) $(grep -c 'NPROC' $T/runas.out)" "2 1 0"
done
# and it still answers, naming what it reads through /proc
$UCT --listen 127.0.0.1:9468 2> $T/listen2.err &
u=$!
waitfor 600 grep -q '^ucounttop: serving' $T/listen2.err &&
	timeout 60 wget -q -O $T/scrape http://127.0.0.1:9468/metrics
kill $u
wait $u
expect "--listen without its privileges: a scrape answered, pid 1 named" \
	"$(grep -c '^ucounttop_nproc_processes{' $T/scrape | sed 's/^[1-9][0-9]*$/some/') $(grep -c '^ucounttop_namespace_info{ns=' $T/scrape | sed 's/^[1-9][0-9]*$/some/')" \
	"some some"

kill $wl
wait $wl 2> /dev/null

run pinned 'NPROC' -b -d 1 -n 600 --pin /sys/fs/bpf/uct5h
expect "--pin: unpinned on exit by the reader (the main process is not root)" \
	"$(cat $T/pinned.rc) $(ls /sys/fs/bpf/uct5h 2> /dev/null | wc -l)" "0 0"

run trace '^ucounttop: tracing' trace --duration 60
expect "trace, tracing: no capability at all, NoNewPrivs" "$(cat $T/trace.caps)" \
	"$(want $NONE $NONE)"
expect "trace: still uid 0 (bpffs's owner, for --pin), a seccomp filter where the kernel has them" \
	"$(grep '^main:' $T/trace.who | sed 's/ Gid.*Seccomp/ Seccomp/; s/ Gid.*//') $(grep -c "$NO_FILTER" $T/trace.err)" \
	"main: Uid:=0,0,0,0$FILTER $WARNED"

# check: CMD waits until check has dropped its own (bounded), then
# records both
cat > $T/cmd.sh << 'EOF'
i=0
while [ "$(sed -n 's/^CapEff:[[:space:]]*//p' /proc/$PPID/status)" = "$ROOT" ] && [ $i -lt 100 ]; do
	usleep 50000
	i=$((i + 1))
done
awk '/^(CapInh|CapPrm|CapEff|CapBnd|CapAmb|NoNewPrivs):/ { printf "%s%s=%s", n++ ? " " : "", $1, $2 }
     END { print "" }' /proc/$PPID/status > $T/check.caps
echo "$(id -u) $(id -g) $(sed -n 's/^CapEff:[[:space:]]*//p' /proc/self/status) $(sed -n 's/^NoNewPrivs:[[:space:]]*//p' /proc/self/status)" > $T/$1.cmd
EOF
chmod 0755 $T/cmd.sh
export ROOT T
$UCT check -- sh $T/cmd.sh root > $T/check.out 2>&1
expect "check exits 0" "$?" 0
expect "check, while CMD runs: CAP_KILL and CAP_SYSLOG, NoNewPrivs" "$(cat $T/check.caps)" \
	"$(want $KEEP_CHECK $KEEP_CHECK)"
expect "check's CMD: root with root's capabilities, no NoNewPrivs (as started)" \
	"$(cat $T/root.cmd)" "0 0 $ROOT 0"

$UCT check --user alice -- sh $T/cmd.sh alice > $T/alice.out 2>&1
expect "check --user alice exits 0" "$?" 0
expect "check --user alice: CMD is uid 1000 gid 1000 with no capability" \
	"$(cat $T/alice.cmd)" "1000 1000 $NONE 0"
$UCT check --user 65534:65533 -- sh $T/cmd.sh nobody > $T/nobody.out 2>&1
expect "check --user 65534:65533: CMD is that uid and gid" \
	"$(cut -d' ' -f1-3 $T/nobody.cmd)" "65534 65533 $NONE"

# --timeout ends another user's CMD: check kept CAP_KILL for that
$UCT check --user alice --timeout 1 --settle 5 -- sleep 300 > $T/to.out 2>&1
expect "check --user alice --timeout 1 -- sleep 300: timed out (124), no sleep left" \
	"$? $(ps -o pid,args | grep -c '[s]leep 300')" "124 0"

# --user's CMD cannot reach root's terminal: check runs on a pty (as
# root in a shell would), CMD tries TIOCSTI and writes escape sequences
PROBE=/uct/bin/uct-tty-probe
/uct/bin/uct-pty 80x24 "" -- $PROBE > $T/root-tty.out 2>&1
expect "on a pty, a command of root's own has the terminal (the probe can tell)" \
	"$(grep -c '^ctty=yes stdin=/dev/pts/[0-9]* tiocsti=ok' $T/root-tty.out)" 1
/uct/bin/uct-pty 80x24 "" -- $UCT check --user alice -- $PROBE > $T/tty.out 2>&1
expect "check --user alice on a pty exits 0" "$?" 0
expect "check --user alice: CMD has no controlling terminal, reads /dev/null, TIOCSTI fails" \
	"$(grep -c '^ctty=no stdin=/dev/null tiocsti=' $T/tty.out) $(grep -c 'tiocsti=ok' $T/tty.out)" "1 0"
expect "check --user alice on a terminal: CMD's escape sequences and carriage return come out as '?'" \
	"$(grep -c "$(printf '\033')" $T/tty.out) $(grep -c '^?\]0;pwned??\[2J?tail' $T/tty.out)" "0 1"
$UCT check --user alice -- $PROBE > $T/file.out 2>&1
expect "check --user alice into a file: CMD's bytes as they are" \
	"$(grep -c "$(printf '\033]0;pwned')" $T/file.out)" 1

$UCT check --user no-such-user -- true > $T/bad.out 2>&1
expect "check --user no-such-user: usage error (2), naming it" \
	"$? $(grep -c "^ucounttop: --user no-such-user: no such user" $T/bad.out)" "2 1"
$UCT --user alice -b -n 1 > $T/bad2.out 2>&1
expect "--user outside check: usage error (2)" "$?" 2

echo "1..$n"
[ "$fails" -eq 0 ]
