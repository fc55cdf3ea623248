#!/bin/sh
# `ucounttop check` reports a ucounts freed while charged, and nothing
# else: uct_fault's "free" charges 2 processes to a fresh (init, uid 4242)
# and drops its last reference. Needs the ucounts_free tracepoint (patch
# 0002): skipped without it, as check skips the class. KTAP.
U=/uct/bin/ucounttop
MOD=/uct/modules/uct_fault.ko
I=/sys/kernel/debug/uct_fault/inject
J=/tmp/check-$$.json
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
# findings CLASS: how many findings check reported in CLASS
findings() { sed -n "s/.*\"$1\":{\"checked\":[a-z]*,\"findings\":\([0-9]*\).*/\1/p" $J; }
# failing: number of failing findings
failing() { grep -o '"failing":true' $J | wc -l | tr -d ' '; }
# one line per finding
each_finding() { sed 's/,{"class":/\n{"class":/g; s/"findings":\[{"class":/\n{"class":/' $J | grep '^{"class":'; }
# dump the report as KTAP diagnostics
show() { each_finding | sed 's/,"stacks":.*//; s/^/# /'; sed 's/"findings":\[.*//; s/^/# /' $J; }
# is_only CLASS: every other class has no finding
is_only() {
	for c in lost_uncharge double_uncharge freed_while_charged hierarchy_mismatch \
		admitted_over_limit outstanding; do
		[ "$c" = "$1" ] && continue
		[ "$(findings $c)" = 0 ] || return 1
	done
}
init_ns=$(readlink /proc/1/ns/user | tr -dc 0-9)
# holder: a user namespace created by root (uid 0 mapped to 0) with three
# processes living in it, so that its (ns, 0) row exists before and after
# the workload; the workload enters it with nsenter
start_holder() {
	rm -f /tmp/holder.pid /tmp/holder.kids
	unshare -U -r sh -c 'sleep 1000 & echo $! >> /tmp/holder.kids
		sleep 1000 & echo $! >> /tmp/holder.kids
		echo $$ > /tmp/holder.pid; wait' &
	w=50
	while [ ! -s /tmp/holder.pid ] && [ $w -gt 0 ]; do usleep 100000; w=$((w - 1)); done
	holder=$(cat /tmp/holder.pid)
	usleep 200000
	ns=$(readlink /proc/$holder/ns/user | tr -dc 0-9)
}
stop_holder() {
	[ -n "$holder" ] || return
	kill $(cat /tmp/holder.kids) 2>/dev/null
	wait
	holder=
}
load_module() {
	if [ ! -f $MOD ]; then
		echo "1..0 # SKIP $MOD not built"
		exit 4
	fi
	insmod $MOD || { echo "1..1"; echo "not ok 1 insmod $MOD"; exit 1; }
}
unload_module() {
	echo repair > $I
	check "repair" [ $? -eq 0 ]
	rmmod uct_fault
	check "rmmod uct_fault" [ $? -eq 0 ]
}
has_finding() { each_finding | grep -qF "$1"; }
# finding_has WANT TEXT: the finding starting with WANT contains TEXT
finding_has() { each_finding | grep -F "$1" | grep -qF "$2"; }
# has_stack WANT KIND FRAME: the finding starting with WANT has a KIND stack with FRAME
has_stack() { each_finding | grep -F "$1" | grep -q "\"kind\":\"$2\"[^]]*\"$3+"; }

echo "KTAP version 1"
if [ ! -d /sys/kernel/tracing/events/ucounts/ucounts_free ]; then
	echo "1..0 # SKIP kernel without the ucounts_free tracepoint: check skips this class"
	exit 4
fi
load_module
$U check --json -o $J -- sh -c "echo free nproc 2 > $I"
rc=$?
want="{\"class\":\"freed_while_charged\",\"failing\":true,\"ns\":$init_ns,\"level\":0,\"uid\":4242,\"type\":\"nproc\",\"amount\":2,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "freed-while-charged is checked" grep -q '"freed_while_charged":{"checked":true' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "freed-while-charged at ns $init_ns level 0 uid 4242, nproc, amount 2" has_finding "$want"
check "no finding of any other class" is_only freed_while_charged
check "its free stack is put_ucounts" has_stack "$want" free put_ucounts
check "its never-uncharged charge is uct_fault's inject_write" has_stack "$want" open inject_write
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
