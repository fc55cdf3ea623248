# Shared by guest tests 60-64 (sourced, not run): the KTAP helpers, the
# readers of `ucounttop check --json` reports, the user namespace that
# holds the row a fault is injected into, and uct_fault loading.
U=/uct/bin/ucounttop
MOD=/uct/modules/uct_fault.ko
I=/sys/kernel/debug/uct_fault/inject
J=/tmp/check-$$.json
# each_finding, failing, show
. /uct/tests/lib/check-report.sh
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
# findings CLASS: how many findings check reported in CLASS
findings() { sed -n "s/.*\"$1\":{\"checked\":[a-z]*,\"findings\":\([0-9]*\).*/\1/p" $J; }
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
# has_stack WANT KIND FRAME: the finding starting with WANT has a KIND stack
# with FRAME, or a part GCC split off it (put_ucounts.part.0)
has_stack() { each_finding | grep -F "$1" | grep -qE "\"kind\":\"$2\"[^]]*\"$3(\\.[a-z]+\\.[0-9]+)?\\+"; }
