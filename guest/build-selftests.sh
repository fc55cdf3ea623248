#!/bin/bash
# Build the kselftest programs the guest runs, from the patched tree, as
# static binaries (the guest has busybox but no libc), into
# $TOUT/selftests/<target>/ (the guest's /uct/selftests/<target>/).
#
# SELFTEST_TARGETS is a list of TARGET or TARGET:PROG[,PROG...]. A bare
# TARGET builds everything its Makefile builds; listed programs are built
# alone, through the target's own Makefile (the other programs of a target
# may need libraries the guest build does not have: mqueue's mq_perf_tests
# needs libpopt). Default, what guest/tests/65-check-kselftests.sh runs under
# `ucounttop check` (each charges one of the four counters):
#   rlimits                 rlimits-per-userns (upstream, NPROC) and our
#                           rlimits_userns_test (all four, per namespace)
#   mqueue:mq_open_tests    POSIX message queue limits (MSGQUEUE)
#   vm:hugepage-shm         a SHM_HUGETLB segment (MEMLOCK, user_shm_lock)
#   ptrace:peeksiginfo      queued real-time signals (SIGPENDING)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARGETS=${SELFTEST_TARGETS:-rlimits mqueue:mq_open_tests vm:hugepage-shm ptrace:peeksiginfo}
[ -f "$KSRC/.uct-tree" ] || die "no patched tree at $KSRC (run 'make kernel' first)"
for spec in $TARGETS; do
	t=${spec%%:*}
	progs=
	[ "$spec" = "$t" ] || progs=${spec#*:}
	out=$TOUT/selftests/$t
	# selftests/vm became selftests/mm in 6.3: built from there, installed
	# where the guest tests look for it
	src=$KSRC/tools/testing/selftests/$t
	[ "$t" = vm ] && [ ! -d "$src" ] && src=$KSRC/tools/testing/selftests/mm
	mkdir -p "$out"
	goals=()
	for p in ${progs//,/ }; do
		goals+=("$out/$p")
	done
	extra=()
	# mq_perf_tests' -lpopt is in the target's LDLIBS; mq_open_tests needs none of it
	[ "$t" = mqueue ] && [ -n "$progs" ] && extra+=("LDLIBS=-lrt -lpthread")
	make -s -C "$src" OUTPUT="$out" \
		CC="ccache gcc" LDFLAGS=-static "${extra[@]}" "${goals[@]}" \
		> "$LOGDIR/selftests-$t.log" 2>&1 || {
		tail -n 30 "$LOGDIR/selftests-$t.log" >&2
		die "building kselftest target '$spec' failed (log: $LOGDIR/selftests-$t.log)"
	}
	stage selftests "$t: $(cd "$out" && find . -type f -perm -u+x | sed 's|^\./||' | sort | tr '\n' ' ')"
done
