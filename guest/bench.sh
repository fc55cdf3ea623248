#!/bin/sh
# make bench, inside the guest (run under QEMU -icount: guest time follows
# executed instructions). Times the SIGPENDING and NPROC hot paths with
# ucounttop detached, in its default live view (snapshot per refresh),
# with --events (a program on every charge), as `ucounttop trace`, and
# bpftrace doing the same (when make bench copied it in, /opt/bt); then the
# live view's refresh cost at 1,000 / 10,000 / 50,000 ucounts (as rows of
# one namespace, and as as many namespaces), and what `ucounttop check`
# costs the kselftests it runs. BENCH_HOT_ONLY=1: the first part only
# (make bench's run on a stock kernel).
# The modes are measured in ROUNDS rounds, interleaved (every mode once,
# then again), after a warm-up, and each figure is the median of its
# rounds with their spread: a disturbance during one mode's run shows as
# spread instead of moving one figure.
# Each loop spans several refreshes, so the view's periodic cost is in it.
SIGQ_N=${SIGQ_N:-200000}
FORK_N=${FORK_N:-5000}
ROUNDS=${ROUNDS:-3}
SCALE=${SCALE:-1000 10000 50000}
BT=/opt/bt/run-bpftrace
out=/tmp/bench.txt
: > $out
# our series' tracepoints, or a stock kernel's fexit path only
has_tp=0
grep -q btf_trace_ucounts_rlimit_charge /sys/kernel/btf/vmlinux 2> /dev/null && has_tp=1

# The four charge functions, as every tool here sees them (one probe each:
# bpftrace takes several attach points only when their arguments agree).
# The series makes inc_rlimit_ucounts() an inline wrapper of
# inc_rlimit_ucounts_over(): hook whichever the kernel has.
inc=inc_rlimit_ucounts
grep -qx inc_rlimit_ucounts_over /sys/kernel/tracing/available_filter_functions 2> /dev/null &&
	inc=inc_rlimit_ucounts_over
FUNCS="$inc dec_rlimit_ucounts inc_rlimit_get_ucounts dec_rlimit_put_ucounts"
bt_each() { # bt_each ACTION: the same action on each of the four
	for fn in $FUNCS; do printf 'kfunc:%s { %s }\n' "$fn" "$1"; done
}
BT_COUNT=$(bt_each '@[args->ucounts, args->type] = count();')
BT_PRINTF=$(bt_each 'printf("%llu %d %s %p %d\n", nsecs, pid, comm, args->ucounts, args->type);')
BT_TP="tracepoint:ucounts:ucounts_rlimit_charge,tracepoint:ucounts:ucounts_rlimit_uncharge { @[args->ucounts, args->type] = count(); }"

# hooks_of ARGS...: the hooks `ucounttop -b ARGS` attaches, one per line,
# from its header ("hooks tp_btf:X,fexit:Y,...")
hooks_of() {
	ucounttop -b -n 1 "$@" 2> /dev/null | sed -n 's/.*  hooks \([^ ]*\).*/\1/p' | head -n 1 | tr , '\n' | sort
}
# The floor of --events: the live view, and an empty program (uct-empty)
# on each hook --events adds to it, attached the same way: what counting
# cannot go below, the dispatch to a program on every charge.
FLOOR_HOOKS=$(hooks_of > /tmp/hooks.live; hooks_of --events |
	awk 'NR == FNR { live[$0] = 1; next } !($0 in live)' /tmp/hooks.live - | tr '\n' ' ' | sed 's/ $//')

# wait_for FILE TEXT SECONDS: TEXT appears in FILE within SECONDS
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null; do
		i=$((i + 1))
		[ $i -gt $(($3 * 10)) ] && return 1
		sleep 0.1
	done
}

measure() { # measure MODE READY-TEXT CMD...: CMD's output to /tmp/bench-tool.out
	mode=$1 ready=$2
	shift 2
	echo "# bench: $mode" >&2
	pid=
	if [ $# -gt 0 ]; then
		"$@" > /tmp/bench-tool.out 2> /tmp/bench-tool.err &
		pid=$!
		if [ -n "$ready" ] && ! wait_for /tmp/bench-tool.out "$ready" 600; then
			echo "$mode: '$*' never printed '$ready':"; cat /tmp/bench-tool.err; exit 1
		fi
		sleep 2	# attached and past the first refresh
		kill -0 $pid 2>/dev/null || { echo "$mode: '$*' failed:"; cat /tmp/bench-tool.err; exit 1; }
	fi
	s=$(uct-bench sigqueue "$SIGQ_N" 1 | cut -d' ' -f2) || exit 1
	f=$(uct-bench fork "$FORK_N" 1 | cut -d' ' -f2) || exit 1
	if [ -n "$pid" ]; then
		kill -INT $pid
		wait $pid
	fi
	# the tracers: lines written and events lost over both loops (a
	# tracer that loses events does less work for them)
	lines=- lost=-
	case $mode in
	trace)
		lines=$(($(wc -l < /tmp/bench-tool.out) - 1))
		lost=$(sed -n 's/^ucounttop: \([0-9]*\) events dropped.*/\1/p' /tmp/bench-tool.err)
		;;
	trace-w)
		# the records, each of which trace -r prints as a line
		lines=$(($(ucounttop trace -r /tmp/bench.uct | wc -l) - 1))
		lost=$(sed -n 's/^ucounttop: \([0-9]*\) events dropped.*/\1/p' /tmp/bench-tool.err)
		;;
	bt-printf)
		lines=$(grep -c '^[0-9]' /tmp/bench-tool.out)
		lost=$(cat /tmp/bench-tool.out /tmp/bench-tool.err |
			sed -n 's/.*Lost \([0-9]*\) events.*/\1/p' | awk '{ n += $1 } END { print n + 0 }')
		;;
	esac
	echo "$mode $s $f $lines ${lost:-0}" >> $out
}

# ev-floor: the live view beside the empty programs
measure_floor() {
	ucounttop -b -d 1 > /dev/null 2> /tmp/bench-live.err &
	live=$!
	measure ev-floor Attached uct-empty $FLOOR_HOOKS
	kill -INT $live
	wait $live
}

# the modes, in the order of the rows
modes="untraced live"
[ -n "$FLOOR_HOOKS" ] && modes="$modes ev-floor"
modes="$modes events"
# the same counts from fexit on the charge functions instead of our
# tracepoints (what a stock kernel gets)
[ $has_tp = 1 ] && modes="$modes ev-fexit"
modes="$modes trace trace-w"
if [ -x $BT ]; then
	modes="$modes bt-count bt-printf"
	[ $has_tp = 1 ] && modes="$modes bt-tp"
fi
# BENCH_MODES="trace-w bt-count": only these, and untraced, which every
# figure is a ratio to (by hand, to follow one change; make bench runs
# them all). A name that is no mode on this kernel is an error.
if [ -n "${BENCH_MODES:-}" ]; then
	for m in $BENCH_MODES; do
		case " $modes " in *" $m "*) ;; *)
			echo "bench.sh: BENCH_MODES: '$m' is not a mode on this kernel (modes: $modes)" >&2
			exit 2 ;;
		esac
	done
	keep=
	for m in $modes; do
		case " untraced $BENCH_MODES " in *" $m "*) keep="$keep $m" ;; esac
	done
	modes=${keep# }
fi
run_mode() {
	case $1 in
	untraced) measure untraced '' ;;
	live) measure live '' ucounttop -b -d 1 ;;
	ev-floor) measure_floor ;;
	events) measure events '' ucounttop -b -d 1 --events ;;
	ev-fexit) measure ev-fexit '' ucounttop -b -d 1 --events --no-tracepoints ;;
	# trace to a file (tmpfs), no stacks
	trace) measure trace '' ucounttop trace ;;
	# the same events recorded (binary), to a file on tmpfs
	trace-w) measure trace-w '' ucounttop trace -w /tmp/bench.uct ;;
	bt-count) measure bt-count Attaching $BT -e "$BT_COUNT" ;;
	bt-printf) measure bt-printf Attaching $BT -e "$BT_PRINTF" ;;
	bt-tp) measure bt-tp Attaching $BT -e "$BT_TP" ;;
	esac
}

# warm-up: the first runs after boot are slower (caches, page tables,
# the last of boot's work), and would be the untraced figure
uct-bench sigqueue "$SIGQ_N" 2 > /dev/null
uct-bench fork "$FORK_N" 2 > /dev/null
for r in $(seq "$ROUNDS"); do
	for m in $modes; do
		run_mode "$m"
	done
done

# per mode: median and spread ((max - min) / median) of each loop, in the
# rows' order; "BENCH" lines for make bench to merge with another kernel's
echo "kernel $(uname -r)$([ $has_tp = 1 ] && echo ', with the ucounts tracepoints')"
# med: "MEDIAN SPREAD" of the numbers on stdin, the spread being
# (max - min) / median in percent
med() {
	sort -n | awk '{ v[NR] = $1 } END { m = v[int((NR + 1) / 2)]
		printf "%d %.1f\n", m, m ? (v[NR] - v[1]) * 100 / m : 0 }'
}
for m in $modes; do
	sig=$(grep "^$m " $out | cut -d' ' -f2 | med)
	frk=$(grep "^$m " $out | cut -d' ' -f3 | med)
	last=$(grep "^$m " $out | tail -n 1 | cut -d' ' -f4-5)
	echo "BENCH $m $sig $frk $last"
done > /tmp/bench.summary
cat /tmp/bench.summary
awk 'NR == 1 { s0 = $3; f0 = $5 }
	{ printf "| %-9s | %9d | %+6.1f%% | %4.1f%% | %9d | %+6.1f%% | %4.1f%% | %9s | %9s |\n", $2, $3,
		($3 / s0 - 1) * 100, $4, $5, ($5 / f0 - 1) * 100, $6, $7, $7 == "-" ? "-" : $8 }' \
	/tmp/bench.summary > /tmp/bench.rows
echo "| tool | sigqueue+sigwaitinfo ns/op | vs untraced | spread | fork+_exit+waitpid ns/op | vs untraced | spread | lines written | events lost |"
echo "|---|---|---|---|---|---|---|---|---|"
cat /tmp/bench.rows
echo "(guest time under QEMU -icount shift=0,sleep=off, 1 vCPU, kernel $(uname -r); median of $ROUNDS"
echo " interleaved rounds of $SIGQ_N and $FORK_N iterations, spread = (max - min) / median;"
echo " events/trace: $([ $has_tp = 1 ] && echo 'our ucounts tracepoints; ev-fexit: ' )fentry/fexit on the four charge functions;"
echo " ev-floor: the live view and an empty program on each hook --events adds: $FLOOR_HOOKS;"
echo " bt-*: bpftrace $([ -x $BT ] && $BT --version 2>/dev/null | cut -d' ' -f2) on the same four functions (kfunc), count() or printf per event$([ $has_tp = 1 ] && echo '; bt-tp: on our tracepoints');"
echo " lines written / events lost: trace, trace-w (its records) and bt-printf, over both loops, to a file on tmpfs)"

# --- where a per-event mode's cost goes ------------------------------------
# The signal loop once more under the live view, --events, trace and
# trace -w, with the kernel's BPF statistics on (kernel.bpf_stats_enabled:
# each program's run time and count, which the statistics themselves add
# two clock reads to): per event (a charge or an uncharge, two per round trip), the loop's
# cost over untraced, the time inside our programs, the reader's CPU time
# (utime + stime of the ucounttop process, /proc/PID/stat, 10 ms ticks)
# and the rest: the kernel's dispatch to the programs, wake-ups and
# scheduling.
PROF_N=${PROF_N:-500000}
prog_time() { # the run time (ns) of every loaded program, summed
	bpftool prog show 2> /dev/null | awk '/^[0-9]+: / { for (i = 1; i < NF; i++)
		if ($i == "run_time_ns") s += $(i + 1) } END { print s + 0 }'
}
cpu_ticks() { awk '{ print $14 + $15 }' /proc/"$1"/stat; }
echo 1 > /proc/sys/kernel/bpf_stats_enabled
u0=$(uct-bench sigqueue "$PROF_N" 1 | cut -d' ' -f2)
echo
echo "| mode | cost over untraced ns/event | in our BPF programs | reader's CPU | the rest (dispatch, wake-ups) |"
echo "|---|---|---|---|---|"
for m in live events trace trace-w; do
	echo "# bench: profile $m" >&2
	case $m in
	live) ucounttop -b -d 1 > /dev/null 2>&1 & ;;
	events) ucounttop -b -d 1 --events > /dev/null 2>&1 & ;;
	trace) ucounttop trace > /tmp/bench-tool.out 2> /dev/null & ;;
	trace-w) ucounttop trace -w /tmp/bench.uct 2> /dev/null & ;;
	esac
	pid=$!
	sleep 2
	p0=$(prog_time) c0=$(cpu_ticks $pid)
	ns=$(uct-bench sigqueue "$PROF_N" 1 | cut -d' ' -f2)
	p1=$(prog_time) c1=$(cpu_ticks $pid)
	kill -INT $pid
	wait $pid
	awk -v m=$m -v n="$PROF_N" -v u0="$u0" -v ns="$ns" -v p="$((p1 - p0))" -v c="$((c1 - c0))" \
		'BEGIN { ev = 2 * n; all = (ns - u0) / 2; prog = p / ev; rd = c * 1e7 / ev
		printf "| %s | %.0f | %.0f | %.0f | %.0f |\n", m, all, prog, rd, all - prog - rd }'
done
echo 0 > /proc/sys/kernel/bpf_stats_enabled
echo "(guest time per charge or uncharge in a $PROF_N-iteration signal loop, kernel $(uname -r), with the kernel's"
echo " BPF statistics on, which add two clock reads to every program run; reader: ucounttop's own CPU time)"
[ "${BENCH_HOT_ONLY:-0}" = 1 ] && exit 0

# --- refresh at scale --------------------------------------------------
# N ucounts held, in two shapes (uct-churn, no process left holding them):
# "uids", N rows in the initial namespace (N namespaces of distinct
# creators, held open by fd: each keeps its creator's row); "namespaces",
# N namespaces of one row each (namespace, uid 0), held by a file their
# creator opened, under the initial root's row. The CPU time of
# `ucounttop -b -n K` (its BPF iterator runs in its system time) for K = 1
# and 6: the first includes loading; the difference / 5 is one refresh.
# Setup: the guest time uct-churn took to create them.
echo 200000 > /proc/sys/user/max_user_namespaces
echo
echo "| ucounts held | rows | setup s | first refresh (load + 1) ms | each further refresh ms | of it in the kernel ms | per row µs | peak RSS MiB |"
echo "|---|---|---|---|---|---|---|---|"
base=1879048192
rows_now() { ucounttop --json -n 1 2> /dev/null | grep -o '"uid":' | wc -l; }
idle=$(rows_now)
for shape in uids namespaces; do
	for n in $SCALE; do
		echo "# bench: scale $n $shape" >&2
		mkfifo /tmp/hold.in 2>/dev/null
		if [ $shape = uids ]; then
			uct-churn hold "$n" "$base" < /tmp/hold.in > /tmp/hold.out 2>&1 &
		else
			uct-churn hold-ns "$n" < /tmp/hold.in > /tmp/hold.out 2>&1 &
		fi
		hold=$!
		exec 9> /tmp/hold.in
		if ! wait_for /tmp/hold.out READY 1200; then
			echo "scale $n $shape: uct-churn did not get READY:"; cat /tmp/hold.out; exit 1
		fi
		uct-bench rusage -q ucounttop -b -n 1 > /tmp/r1 2>/dev/null
		uct-bench rusage -q ucounttop -b -n 6 -d 0.01 > /tmp/r6 2>/dev/null
		rows_now > /tmp/rows
		exec 9>&-
		wait $hold
		# the kernel frees a namespace later, in a work queue: the next
		# shape starts once this one's rows are gone (at most 600 s)
		w=0
		while [ "$(rows_now)" -gt "$idle" ] && [ $w -lt 300 ]; do
			w=$((w + 1))
			sleep 2
		done
		base=$((base + n))
		awk -v held="$n $shape" -v rows="$(cat /tmp/rows)" \
			-v setup="$(sed -n 's/^READY [0-9]* in \([0-9.]*\) s/\1/p' /tmp/hold.out)" \
			'FNR == 1 && NR == 1 { c1 = $3 / 1000; e1 = $7; s1 = $13 / 1000 }
			NR == 2 { c6 = $3 / 1000; rss = $5 / 1024; e6 = $7; s6 = $13 / 1000 }
			END { if (e1 || e6) { print "| " held " | failed: exit " e1 "/" e6 " | | | | | | |"; exit }
			      printf "| %s | %d | %.1f | %.0f | %.1f | %.1f | %.2f | %.1f |\n", held, rows, setup,
				c1, (c6 - c1) / 5, (s6 - s1) / 5, (c6 - c1) / 5 / rows * 1000, rss }' /tmp/r1 /tmp/r6
		rm -f /tmp/hold.in
	done
done
echo "(CPU time of ucounttop -b -n 1 and -n 6 in guest ms, user + system, same -icount guest;"
echo " in the kernel: its system time, the iterator's walk and reads; per row: a further refresh / rows;"
echo " setup: guest time to create the namespaces that hold them)"

# --- check's cost ---------------------------------------------------------
# Each kselftest that charges the counters, alone and as `ucounttop check
# -- CMD` (which attaches, runs it, then judges): elapsed guest time of the
# whole, and of the test itself (its CPU time, where the per-charge
# programs run).
S=/uct/selftests
echo
echo "| kselftest | alone ms | under check ms (ratio) | its CPU alone ms | its CPU under check ms (ratio) |"
echo "|---|---|---|---|---|"
for t in rlimits/rlimits-per-userns rlimits/rlimits_userns_test "mqueue/mq_open_tests /uct-bench-mq" ptrace/peeksiginfo; do
	set -- $t
	[ -x "$S/$1" ] || continue
	echo "# bench: check cost of $1" >&2
	bin=$S/$1
	shift
	uct-bench rusage -q "$bin" "$@" > /tmp/c0 2>/dev/null
	# one run under check: an inner uct-bench reports the test's own CPU
	# time (its line comes first), the outer one check's whole run
	uct-bench rusage ucounttop check -o /tmp/check.txt -- uct-bench rusage -q "$bin" "$@" > /tmp/c2 2>/dev/null
	awk -v name="${t%% *}" 'FILENAME == "/tmp/c0" { w0 = $9 / 1000; c0 = $3 / 1000 }
		FILENAME == "/tmp/c2" && /^rusage/ { if (seen++) { w1 = $9 / 1000; e1 = $7 } else c2 = $3 / 1000 }
		END { printf "| %s | %.0f | %.0f (%.2fx%s) | %.0f | %.0f (%.2fx) |\n", name, w0, w1,
			w1 / w0, e1 ? ", check exit " e1 : "", c0, c2, c2 / c0 }' /tmp/c0 /tmp/c2
done
echo "(elapsed: the test alone vs ucounttop check -- test, attach and report included; CPU: the test's own user + system time)"

# --- check --kselftest: whole collections ---------------------------------
# Each collection's tests alone (one after another, each from its
# directory, as the runner runs them) vs `ucounttop check --kselftest DIR`
# (the programs loaded once, then per test: clear, baseline, run, settle,
# judge, report). Elapsed and CPU are of the whole: the tests' and
# check's. Then the fixed cost alone: collections of 1 and of 10 tests that
# do nothing; per test is what the 9 more cost, load what the first does.
echo
echo "| collection | tests | alone ms | under check --kselftest ms | overhead per test ms | CPU alone ms | CPU under check ms |"
echo "|---|---|---|---|---|---|---|"
ksft_alone() { # ksft_alone DIR: rusage lines of each test, alone
	for f in "$1"/*; do
		[ -f "$f" ] && [ -x "$f" ] || continue
		(cd "$1" && uct-bench rusage -q "$f")
	done
}
for c in rlimits mqueue ptrace pidfd; do
	[ -d $S/$c ] || continue
	echo "# bench: check --kselftest $c" >&2
	ksft_alone $S/$c > /tmp/k0 2> /dev/null
	uct-bench rusage -q ucounttop check --kselftest $S/$c > /tmp/k1 2> /dev/null
	awk -v name=$c 'FILENAME == "/tmp/k0" { n++; w0 += $9 / 1000; c0 += $3 / 1000 }
		FILENAME == "/tmp/k1" { w1 = $9 / 1000; c1 = $3 / 1000; e1 = $7 }
		END { printf "| %s | %d | %.0f | %.0f%s | %.0f | %.0f | %.0f |\n", name, n, w0, w1,
			e1 ? " (exit " e1 ")" : "", (w1 - w0) / n, c0, c1 }' /tmp/k0 /tmp/k1
done
for k in 1 10; do
	mkdir -p /tmp/ksft-nop$k
	i=0
	while [ $i -lt $k ]; do
		i=$((i + 1))
		printf '#!/bin/sh\nexit 0\n' > /tmp/ksft-nop$k/nop$i
		chmod 755 /tmp/ksft-nop$k/nop$i
	done
done
echo "# bench: check --kselftest fixed cost" >&2
ksft_alone /tmp/ksft-nop10 > /tmp/k0 2> /dev/null
uct-bench rusage -q ucounttop check --kselftest /tmp/ksft-nop1 > /tmp/k1 2> /dev/null
uct-bench rusage -q ucounttop check --kselftest /tmp/ksft-nop10 > /tmp/k10 2> /dev/null
uct-bench rusage -q ucounttop check -o /tmp/check.txt -- /tmp/ksft-nop1/nop1 > /tmp/kc 2> /dev/null
awk 'FILENAME == "/tmp/k0" { n++; w0 += $9 / 1000; c0 += $3 / 1000 }
	FILENAME == "/tmp/k1" { w1 = $9 / 1000; c1 = $3 / 1000 }
	FILENAME == "/tmp/k10" { w10 = $9 / 1000; c10 = $3 / 1000 }
	FILENAME == "/tmp/kc" { wc = $9 / 1000; cc = $3 / 1000 }
	END { a = w0 / n; ca = c0 / n
		printf "\n| fixed cost, a test that does nothing | elapsed ms | CPU ms |\n|---|---|---|\n"
		printf "| the test alone | %.0f | %.0f |\n", a, ca
		printf "| check -- test (attach, run, judge, detach) | %.0f | %.0f |\n", wc - a, cc - ca
		printf "| check --kselftest, per test after the first | %.0f | %.0f |\n", \
			(w10 - w1) / 9 - a, (c10 - c1) / 9 - ca
		printf "| check --kselftest, once per run (load, attach) | %.0f | %.0f |\n", \
			w1 - a - ((w10 - w1) / 9 - a), c1 - ca - ((c10 - c1) / 9 - ca) }' \
	/tmp/k0 /tmp/k1 /tmp/k10 /tmp/kc
echo "(check's cost beside the test's own: elapsed and CPU, user + system, of the whole run; per test: (10 tests - 1 test) / 9)"
