#!/bin/sh
# make bench, inside the guest (run under QEMU -icount: guest time follows
# executed instructions). Times the SIGPENDING and NPROC hot paths with
# ucounttop detached, in its default live view (snapshot per refresh),
# with --events (a program on every charge) and as `ucounttop trace`.
# Each loop spans several refreshes, so the view's periodic cost is in it.
SIGQ_N=${SIGQ_N:-1000000}
FORK_N=${FORK_N:-30000}
out=/tmp/bench.txt
: > $out

measure() { # measure MODE [ucounttop args...]
	mode=$1
	shift
	pid=
	if [ $# -gt 0 ]; then
		ucounttop "$@" > /dev/null 2> /tmp/bench-tool.err &
		pid=$!
		sleep 2	# attached and past the first refresh
		kill -0 $pid 2>/dev/null || { echo "ucounttop $* failed:"; cat /tmp/bench-tool.err; exit 1; }
	fi
	s=$(uct-bench sigqueue "$SIGQ_N" 1 | cut -d' ' -f2) || exit 1
	f=$(uct-bench fork "$FORK_N" 1 | cut -d' ' -f2) || exit 1
	[ -n "$pid" ] && { kill -INT $pid; wait $pid; }
	echo "$mode $s $f" >> $out
}

measure untraced
measure live -b -d 1
measure events -b -d 1 --events
# the same counts from fexit on the charge functions instead of our
# tracepoints (what a stock kernel gets)
measure ev-fexit -b -d 1 --events --no-tracepoints
measure trace trace

awk 'NR == 1 { s0 = $2; f0 = $3 }
	{ printf "| %-9s | %9d | %+6.1f%% | %9d | %+6.1f%% |\n", $1, $2, ($2 / s0 - 1) * 100, $3, ($3 / f0 - 1) * 100 }' $out > /tmp/bench.rows
echo "| ucounttop | sigqueue+sigwaitinfo ns/op | vs untraced | fork+_exit+waitpid ns/op | vs untraced |"
echo "|---|---|---|---|---|"
cat /tmp/bench.rows
echo "(guest time under QEMU -icount shift=0,sleep=off, 1 vCPU; $SIGQ_N and $FORK_N iterations)"
