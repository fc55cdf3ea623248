#!/bin/sh
# No false positives, measured: the kselftests that charge the four ucounts
# rlimit counters pass under `ucounttop check`, and check finds nothing
# (exit 0). Each runs as its own `check -- CMD`:
#   rlimits/rlimits-per-userns   NPROC: set*uid over RLIMIT_NPROC, unshare
#   rlimits/rlimits_userns_test  all four, per namespace, charges refused
#                                at every level and rolled back (uids from the pid)
#   mqueue/mq_open_tests         MSGQUEUE: queue sizes against the rlimit
#   vm/hugepage-shm              a 256 MiB SHM_HUGETLB segment: as root (no
#                                memlock charge: CAP_IPC_LOCK), as uid 2066
#                                in vm.hugetlb_shm_group (none either), and
#                                as uid 2066 outside it, which 6.1 refuses
#                                (EPERM) after a memlock charge it undoes
#   ptrace/peeksiginfo           SIGPENDING: signals queued to a child, as
#                                root and as uid 2065
# KTAP.
U=/uct/bin/ucounttop
W=/uct/bin/uct-workload
S=/uct/selftests
J=/tmp/check-ksft.json
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; fails=$((fails + 1)); }
skip() { n=$((n + 1)); echo "ok $n $* # SKIP"; }
show() { sed 's/,{"class":/\n{"class":/g; s/"findings":\[/\n/' $J | sed 's/,"stacks":.*//; s/^/# /'; }
cmd_status() { sed -n 's/.*"exit_status":\([0-9]*\).*/\1/p' $J; }

# under NAME WANT AS BIN [ARGS]: run kselftest BIN as root or as uid AS
# (no capabilities) under check; WANT: pass (BIN exits 0) or fail (the
# kernel refuses what BIN does)
under() {
	name=$1 want=$2 as=$3
	shift 3
	if [ ! -x "$1" ]; then
		skip "$name: $1 not built"
		skip "$name: check finds nothing"
		return
	fi
	[ "$as" = root ] || set -- $W --exec-as "$as" -- "$@"
	echo "# $name: ucounttop check -- $*"
	$U check --json -o $J -- "$@" > /tmp/ksft.out 2>&1
	rc=$?
	st=$(cmd_status)
	if [ "$want" = pass ] && [ "$st" = 0 ]; then
		ok "$name: passes under check"
	elif [ "$want" = fail ] && [ -n "$st" ] && [ "$st" != 0 ]; then
		ok "$name: refused by the kernel as expected (exit $st)"
	else
		nok "$name: exit status $st under check, want $want"
		tail -n 20 /tmp/ksft.out | sed 's/^/# /'
	fi
	# with clean counters check exits as kselftest's runner reads the
	# test's status: 0, 4 (skip), 124 (timeout), else 7 (failed)
	case "$st" in
	0 | 4 | 124) want_rc=$st ;;
	*) want_rc=7 ;;
	esac
	if [ $rc -eq $want_rc ] && grep -q '"result":"clean"' $J; then
		ok "$name: check finds nothing (exit $rc)"
	else
		nok "$name: check exit $rc, want $want_rc"
		show
	fi
}

# The kernel fact two of rlimits_userns_test's cases test: a user namespace
# stores its creator's RLIMIT_MEMLOCK as the namespace's maximum in pages
# (the ucounttop series' patch 1) or, on every kernel without it, in bytes,
# which the memlock charges (pages) are then compared with. Read from
# ucounttop's view of a namespace made with RLIMIT_MEMLOCK 4 KiB (1 page):
# OpenMetrics has the maximum as compared, times the page size, so 1 page
# is 4096 and a stock kernel's 4096 "pages" are 4096 times the page size.
memlock_max_in_bytes() {
	pg=$(getconf PAGESIZE 2> /dev/null || echo 4096)
	( ulimit -l 4; exec unshare -U sleep 60 ) &
	p=$!
	me=$(stat -L -c %i /proc/self/ns/user)
	i=0
	while ns=$(stat -L -c %i /proc/$p/ns/user 2> /dev/null); [ "$ns" = "$me" ] && [ $i -lt 100 ]; do
		i=$((i + 1)); sleep 0.1
	done
	v=$($U --openmetrics -n 1 2> /dev/null |
	    sed -n 's/^ucounttop_namespace_memlock_max_bytes{ns="'"$ns"'",.*} //p')
	kill $p
	wait $p 2> /dev/null
	echo "# RLIMIT_MEMLOCK 4 KiB became the namespace's memlock max '$v' bytes" \
		"($((pg)): 1 page, $((4096 * pg)): 4096 bytes taken for pages)"
	[ "$v" = $((4096 * pg)) ]
}

echo "KTAP version 1"
under "rlimits-per-userns" pass root $S/rlimits/rlimits-per-userns
if memlock_max_in_bytes; then
	# those two cases fail, and only those; check still finds nothing
	under "rlimits_userns_test (namespace memlock max in bytes)" fail root \
		$S/rlimits/rlimits_userns_test
	failed=$(sed -n 's/^# *not ok [0-9]* rlimits\.//p; s/^not ok [0-9]* rlimits\.//p' /tmp/ksft.out |
		 sort | tr '\n' ' ')
	if [ "$failed" = "memlock.nested_upper_limit memlock.parent_sum " ]; then
		ok "rlimits_userns_test: only the two memlock cases of the bytes bug fail"
	else
		nok "rlimits_userns_test: failed '$failed', want the two memlock cases only"
	fi
else
	under "rlimits_userns_test" pass root $S/rlimits/rlimits_userns_test
fi
under "mq_open_tests" pass root $S/mqueue/mq_open_tests /uct-check-mq
under "peeksiginfo (root)" pass root $S/ptrace/peeksiginfo
under "peeksiginfo (uid 2065)" pass 2065 $S/ptrace/peeksiginfo

# hugepage-shm maps 256 MiB of 2 MiB huge pages (hugetlb-shm since the
# mm selftests' rename)
shm=$S/vm/hugepage-shm
[ -x "$shm" ] || shm=$S/vm/hugetlb-shm
hp=/proc/sys/vm/nr_hugepages
old_hp=$(cat $hp 2>/dev/null)
old_grp=$(cat /proc/sys/vm/hugetlb_shm_group 2>/dev/null)
echo 128 > $hp 2>/dev/null
if [ "$(cat $hp 2>/dev/null)" -ge 128 ] 2>/dev/null; then
	under "hugepage-shm (root)" pass root "$shm"
	# the mm selftests' version restores nr_hugepages through sysfs at
	# exit, which a uid may not write: let it, for these two runs
	nr=/sys/kernel/mm/hugepages/hugepages-2048kB/nr_hugepages
	nr_mode=$(stat -c %a $nr 2>/dev/null)
	[ -z "$nr_mode" ] || chmod 666 $nr
	echo 2066 > /proc/sys/vm/hugetlb_shm_group
	under "hugepage-shm (uid 2066, hugetlb_shm_group)" pass 2066 "$shm"
	echo 0 > /proc/sys/vm/hugetlb_shm_group
	under "hugepage-shm (uid 2066, not in the group)" fail 2066 "$shm"
	echo "${old_grp:-0}" > /proc/sys/vm/hugetlb_shm_group
	[ -z "$nr_mode" ] || chmod "$nr_mode" $nr
else
	for c in "root" "uid 2066, hugetlb_shm_group" "uid 2066, not in the group"; do
		skip "hugepage-shm ($c): cannot reserve 128 huge pages"
		skip "hugepage-shm ($c): check finds nothing"
	done
fi
echo "${old_hp:-0}" > $hp 2>/dev/null
echo "1..$n"
[ $fails -eq 0 ]
