#!/bin/bash
# The debug kernel (guest/kernel-debug.config: KASAN, lockdep + PROVE_RCU,
# atomic-sleep, debugobjects, kmemleak, UBSAN), booted once to run the
# tests that drive the series' kernel code (guest/debug-tests.sh), then
# its whole console scanned for kernel reports (tests/host/splat-scan.sh).
# TAP: the guest tests' results, then the scan's.
#
# Every user namespace a test makes is a fork, setuid, unshare and exit,
# each allocation and lock of which the checkers track: orders of
# magnitude slower in this guest than in the normal one. The tests that
# make thousands are scaled down here; the
# normal guest keeps their full scale, these check the same paths under
# the checkers.
#
# Knobs: DEBUG_BUILD=1 (build it first if needed), DEBUG_GUEST_SMP (2: SMP, and under TCG a third less time than 4
# for the same tests), DEBUG_GUEST_MEM (MB, 1024), DEBUG_GUEST_TIMEOUT (s,
# whole boot), DEBUG_TEST_TIMEOUT (s, per test), DEBUG_CHURN_HELD (ucounts
# held by 41-ucounts-iter-churn), DEBUG_STRESS=1 (the 7* stress tests
# too, instead of 41, and check around the kselftests, 65: CI sets it),
# DEBUG_STRESS_LIGHT=0 (run them whole: every reader and check, minutes
# a part), DEBUG_STRESS_CHURN_OPS
# (namespaces made by 70-stress-churn), DEBUG_STRESS_DEPTHS (73's),
# DEBUG_TESTS (guest paths, default: guest/debug-tests.sh's list).
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

smp=${DEBUG_GUEST_SMP:-2}
mem=${DEBUG_GUEST_MEM:-1024}
timeout=${DEBUG_GUEST_TIMEOUT:-1200}
per_test=${DEBUG_TEST_TIMEOUT:-400}
held=${DEBUG_CHURN_HELD:-300}
stress_ops=${DEBUG_STRESS_CHURN_OPS:-100}
stress_depths=${DEBUG_STRESS_DEPTHS:-32}
stress_light=${DEBUG_STRESS_LIGHT:-1}
# 71: 16 namespaces under a row of 80 (64 under 320 in the normal guest);
# 72: 8 senders (32): both still certain to be refused at level 0
stress_scale="STRESS_NPROC_NS=16 STRESS_NPROC_LEVEL=80 STRESS_SIGNAL_SENDERS=8"
console=$LOGDIR/debug-kernel.console

# DEBUG_BUILD=1 (make test's "all" matrix): built first when it is not,
# the build's output on stderr
if [ "${DEBUG_BUILD:-0}" = 1 ] && ! make -s -C "$UCT_ROOT" kernel-debug KTREE="$KTREE" >&2; then
	echo "not ok 1 debug kernel built (make kernel-debug failed: its output above)"
	exit 1
fi
if [ ! -f "$BZIMAGE_DEBUG" ]; then
	echo "not ok 1 debug kernel built ($BZIMAGE_DEBUG missing: run 'make kernel-debug')"
	exit 1
fi

# loglevel=7: lockdep, WARN() and kmemleak report at KERN_WARNING/INFO,
# which guest/run's loglevel=4 keeps off the console. kasan_multi_shot:
# every KASAN report, not only the first. acpi=noirq: interrupt routing
# from the MP table, not from the DSDT's _PRT loop, which this kernel
# interprets too slowly (see guest/kernel-debug.config, X86_MPPARSE).
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
rc=0
t0=$(date +%s)
"$UCT_ROOT/guest/run" -q --kernel "$BZIMAGE_DEBUG" --smp "$smp" --mem "$mem" \
	--timeout "$timeout" --append "loglevel=7 kasan_multi_shot acpi=noirq" \
	--add "$UCT_ROOT/guest/debug-tests.sh" --results "$tap" --console "$console" -- \
	env UCT_TEST_TIMEOUT="$per_test" DEBUG_STRESS="${DEBUG_STRESS:-0}" CHURN_HELD="$held" \
		STRESS_CHURN_OPS="$stress_ops" STRESS_DEPTHS="$stress_depths" STRESS_LIGHT="$stress_light" \
		$stress_scale sh /uct/add/debug-tests.sh ${DEBUG_TESTS:-} ||
	rc=$?
t1=$(date +%s)
grep -E '^(not )?ok [0-9]+ ' "$tap"
n=$(grep -cE '^(not )?ok [0-9]+ ' "$tap")
# each test's time under the checkers: what this suite's budget is set by
tr -d '\r' < "$console" | sed -n 's/^=== \(.*: exit .*\)/# \1/p'
echo "# debug guest: $smp vCPUs, $mem MB, $((t1 - t0)) s wall, exit $rc (console: $console)"

# The guest must have got to the end: otherwise reports printed after
# the point where it stopped are missing, and the scan proves nothing.
n=$((n + 1))
if grep -q '^uct-debug: kmemleak scanned twice' < <(tr -d '\r' < "$console"); then
	echo "ok $n kmemleak scanned twice after the tests"
else
	echo "not ok $n kmemleak scanned twice after the tests"
	tr -d '\r' < "$console" | grep '^uct-debug: kmemleak' | sed 's/^/# /'
fi
n=$((n + 1))
if grep -q '^uct-debug: done' < <(tr -d '\r' < "$console"); then
	echo "ok $n debug guest ran to its end"
else
	echo "not ok $n debug guest ran to its end (guest exit $rc; last console lines:)"
	tr -d '\r' < "$console" | tail -n 20 | sed 's/^/# /'
fi
"$UCT_ROOT/tests/host/splat-scan.sh" "$console" $((n + 1)) || rc=1
exit "$rc"
