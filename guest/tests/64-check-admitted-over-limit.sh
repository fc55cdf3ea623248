#!/bin/sh
# `ucounttop check` reports a charge admitted over the limit, and nothing
# else: uid 2064, with RLIMIT_NPROC 1 and one process, has uct_fault "admit"
# 2 more processes - charged, then passed by an off-by-2 limit check (the
# RLIMIT_NPROC+1 bug's shape) - that a work item uncharges 200 ms later, so
# the counter ends where it began. The write goes through a descriptor root
# opened before dropping to uid 2064. KTAP.
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
load_module
exec 3> $I
$U check --json -o $J -- /uct/bin/uct-workload --exec-as 2064 -- /bin/sh -c 'ulimit -u 1 && echo admit nproc 2 >&3'
rc=$?
exec 3>&-
want="{\"class\":\"admitted_over_limit\",\"failing\":true,\"ns\":$init_ns,\"level\":0,\"uid\":2064,\"type\":\"nproc\",\"amount\":2,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "admitted-over-limit at ns $init_ns level 0 uid 2064, nproc, amount 2" has_finding "$want"
check "over at level 0 (uid 2064): 3 processes, limit 1" finding_has "$want" \
	"\"at\":{\"ns\":$init_ns,\"level\":0,\"uid\":2064,\"value\":3,\"limit\":1}"
check "no finding of any other class" is_only admitted_over_limit
check "the check that said within limits: is_rlimit_overlimit from inject_write" \
	has_stack "$want" check inject_write
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
