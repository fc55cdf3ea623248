#!/bin/bash
# Build the kselftest programs the guest runs, from the patched tree, as
# static binaries (the guest has busybox but no libc), into
# $TOUT/selftests/<target>/ (the guest's /uct/selftests/<target>/).
#
# SELFTEST_TARGETS is a list of TARGET or TARGET:PROG[,PROG...]. A bare
# TARGET builds everything its Makefile builds; listed programs are built
# alone, through the target's own Makefile (the other programs of a target
# may need libraries the guest build does not have: mqueue's mq_perf_tests
# needs libpopt). A target's settings file goes beside its programs, as
# kselftest's install puts it, for `ucounttop check --kselftest` to read
# its timeout. Default, what guest/tests/65-check-kselftests.sh runs under
# `ucounttop check` (each charges one of the four counters) and
# 68-check-kselftest-runner.sh runs with `check --kselftest`:
#   rlimits                 rlimits-per-userns (upstream, NPROC) and our
#                           rlimits_userns_test (all four, per namespace)
#   mqueue:mq_open_tests    POSIX message queue limits (MSGQUEUE)
#   vm:hugepage-shm         a SHM_HUGETLB segment (MEMLOCK, user_shm_lock)
#   ptrace:get_syscall_info,peeksiginfo
#                           queued real-time signals (SIGPENDING), and
#                           tracees' system calls; not vmaccess, whose
#                           attach case waits out its 30 s on 6.1 (the
#                           exec/ptrace deadlock it shows is not fixed there)
#   pidfd:pidfd_fdinfo_test,pidfd_getfd_test,pidfd_open_test,pidfd_poll_test,
#         pidfd_setns_test,pidfd_test,pidfd_wait
#                           process file descriptors: forks, waits,
#                           threads, namespaces entered (NPROC); the
#                           programs every tree has (7.3 adds six more, of
#                           which pidfd_info_test's thread_group_exec fails
#                           in our guest with or without check)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARGETS=${SELFTEST_TARGETS:-rlimits mqueue:mq_open_tests vm:hugepage-shm ptrace:get_syscall_info,peeksiginfo
	pidfd:pidfd_fdinfo_test,pidfd_getfd_test,pidfd_open_test,pidfd_poll_test,pidfd_setns_test,pidfd_test,pidfd_wait}
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
	# a program renamed since: built under the name the tree gives it
	# (hugepage-shm is mm/hugetlb-shm in 7.x; the guest tests take either)
	[ -f "$src/hugepage-shm.c" ] || progs=${progs/hugepage-shm/hugetlb-shm}
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
	# only the tests: what an earlier list built and this one does not,
	# and a bare target's helper programs (7.x pidfd's pidfd_exec_helper),
	# are not run (the runner, check --kselftest, runs every executable
	# of the directory); a bare target's tests are those kselftest's own
	# runner would run (lib.mk's emit_tests)
	[ -n "$progs" ] || progs=$(make -s -C "$src" OUTPUT="$out" emit_tests 2> /dev/null |
		sed -n 's/^[^:]*://p' | paste -sd,)
	[ -n "$progs" ] || die "kselftest target '$t' names no test (make emit_tests)"
	for f in "$out"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		case ",$progs," in *",${f##*/},"*) ;; *) rm -f "$f" ;; esac
	done
	rm -f "$out/settings"
	[ ! -f "$src/settings" ] || cp "$src/settings" "$out/settings"
	stage selftests "$t: $(cd "$out" && find . -type f -perm -u+x | sed 's|^\./||' | sort | tr '\n' ' ')"
done
