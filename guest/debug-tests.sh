#!/bin/sh
# Runs inside the debug kernel's guest (tests/host/debug-kernel.sh copies
# it in): the tests that exercise the series' kernel code, through
# /uct/run-tests (TAP to the results port), then an explicit kmemleak scan
# whose report goes to the console. The host scans the whole console for
# kernel reports afterwards; this script only makes sure every report has
# been printed by the time it says "uct-debug: done".
#
#   sh debug-tests.sh [TEST...]    default: the list below
#
# Tests: the series' kselftests (10), its KUnit suite (20, already run at
# boot: relays the results), the iterator (40), the iterator under churn
# (41) and its BPF selftest (42). With DEBUG_STRESS=1 (CI: .ci/run) the
# stress suite (7*) too, in its light form (STRESS_LIGHT=1, set by
# tests/host/debug-kernel.sh): the pinned iterator and every ucounts
# tracepoint read while the workloads run, no live views, trace reader or
# check - under the checkers each of those costs seconds to start, and
# the whole parts take minutes each. 70's light form is then the
# iterator under churn (the pinned iterator read 37 bytes at a time while
# 4 workers make and free namespaces, held rows shown in every pass):
# what 41 checks, which is then left out. And 65: `ucounttop check` around
# the kselftests that charge all four counters, so that check's own
# programs (every charge hooked, the task iterator) run under the checkers
# too and must find nothing.

if [ $# -eq 0 ]; then
	stress=/uct/tests/41-*.sh
	[ "${DEBUG_STRESS:-0}" = 1 ] && stress='/uct/tests/65-*.sh /uct/tests/7*.sh'
	for t in /uct/tests/10-*.sh /uct/tests/20-*.sh /uct/tests/40-*.sh \
		/uct/tests/42-*.sh $stress; do
		[ -f "$t" ] && set -- "$@" "$t"
	done
fi
echo "uct-debug: running $*"
/uct/run-tests "$@"
rc=$?

. /uct/tests/lib/kmemleak.sh
kmemleak_scan
# Let printk drain to the console before the end marker.
sleep 1
echo "uct-debug: done"
exit "$rc"
