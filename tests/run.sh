#!/bin/bash
# make test: the host suites, Debian's stock kernels' guests and our other
# kernels' beside one boot of our mainline guest running the guest tests,
# in the matrix UCT_MATRIX names (dev, full or all: below).
# Each suite speaks TAP; its unindented "ok"/"not ok" lines are counted.
# The last line is "N passed, N failed[, N skipped]"; exit 1 on any failure.
set -uo pipefail
. "$(dirname "$0")/../guest/lib.sh"

MATRIX=${UCT_MATRIX:-dev}
case "$MATRIX" in
dev | full | all) ;;
*) die "UCT_MATRIX=$MATRIX: 'dev' (the default), 'full' (CI) or 'all' (full and the kernels CI cannot build in its time)" ;;
esac
# a bound, not a budget: the stress suite (70-73) made the boot longer
GUEST_TIMEOUT=${GUEST_TIMEOUT:-2700}
# SMP: the iterator churn test and the counters must hold with other CPUs
# charging and freeing concurrently
GUEST_SMP=${GUEST_SMP:-4}
passed=0 failed=0 skipped=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tally SUITE TAPFILE RC: print and count the suite's results. A suite that
# exits non-zero without reporting a failure counts one failure more.
tally() {
	local suite=$1 file=$2 rc=$3 line f0=$failed r0=$((passed + failed + skipped))
	while IFS= read -r line; do
		case "$line" in
		'not ok '*) failed=$((failed + 1)); echo "[$suite] $line" | tee -a "$tmp/failures" ;;
		'ok '*'# SKIP'*|'ok '*'# skip'*) skipped=$((skipped + 1)); echo "[$suite] $line" ;;
		'ok '*) passed=$((passed + 1)); echo "[$suite] $line" ;;
		'# '*) echo "[$suite] $line" ;;
		esac
	done < "$file"
	if [ "$rc" != 0 ] && [ "$failed" = "$f0" ]; then
		failed=$((failed + 1))
		echo "[$suite] not ok - suite exited $rc" | tee -a "$tmp/failures"
	elif [ "$((passed + failed + skipped))" = "$r0" ]; then
		failed=$((failed + 1))
		echo "[$suite] not ok - suite reported no results" | tee -a "$tmp/failures"
	fi
}

# suite NAME CMD...: run one suite, its TAP, stderr and exit status to
# files; tallied later by tally_suite NAME, in a fixed order, so the
# report reads the same however the suites overlapped in time.
# The time and CPU each suite took (its children included) end its report,
# so a slow rerun names its cause. Timed in a subshell of its own: time
# counts every child its shell reaps meanwhile, and this one reaps the
# background chains.
TIMEFORMAT='# took %0Rs, %0U+%0Ss CPU'
suite() {
	local name=$1
	shift
	stage test "host: $name"
	( time { "$@" > "$tmp/$name.tap" 2> "$tmp/$name.err"; echo "$?" > "$tmp/$name.rc"; } ) \
		2> "$tmp/$name.time"
}
tally_suite() {
	local rc
	rc=$(cat "$tmp/$1.rc" 2> /dev/null) || rc="no exit status"
	[ "$rc" = 0 ] || sed 's/^/# /' "$tmp/$1.err" >> "$tmp/$1.tap"
	cat "$tmp/$1.time" >> "$tmp/$1.tap" 2> /dev/null
	tally "$1" "$tmp/$1.tap" "$rc"
}

# The host suites, one after another (they build and fuzz: CPU, no guest).
host_suites=(make-help contrib checkpatch splat-scan guest-runner guest-tools)
[ -f "$UCT_ROOT/cli/Makefile" ] && host_suites+=(manpage package core-relocs cli-unit cli-unit-asan cli-fuzz openmetrics-host prometheus
						node-exporter systemd-unit)
job_host() {
	suite make-help "$UCT_ROOT/tests/host/make-help.sh"
	# contrib/'s Prometheus rules (promtool check/test) and Grafana
	# dashboard, on made-up series
	suite contrib "$UCT_ROOT/tests/host/contrib.sh"
	suite checkpatch "$UCT_ROOT/tests/host/checkpatch.sh"
	suite splat-scan "$UCT_ROOT/tests/host/splat-scan-test.sh"
	suite guest-runner "$UCT_ROOT/tests/host/guest-runner.sh"
	# the guest tools that need no guest (uct-timeout), on the host
	suite guest-tools "$UCT_ROOT/tests/host/guest-tools.sh"
	[ -f "$UCT_ROOT/cli/Makefile" ] || return 0
	# ucounttop(8) and the bash completion against --help, the option
	# parser and the exit codes (runs the host build, never loads BPF)
	suite manpage "$UCT_ROOT/tests/host/manpage.sh"
	# make install and make deb into scratch roots; the unpacked tool
	# runs --version and --help (no BPF)
	suite package "$UCT_ROOT/tests/host/package.sh"
	# every CO-RE relocation of the BPF objects against each kernel
	# we support, from their BTF (builds the objects, loads nothing)
	suite core-relocs "$UCT_ROOT/tests/host/core-relocs.sh"
	suite cli-unit env CMOCKA_MESSAGE_OUTPUT=TAP \
		make -s -C "$UCT_ROOT/cli" test OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX"
	# the same suites under ASan+UBSan: any report fails the suite
	suite cli-unit-asan \
		make -s -C "$UCT_ROOT/cli" test-asan OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX"
	# libFuzzer: options, the live view's model and views, check's
	# judge; a fixed seed and number of runs each, at most FUZZ_SECS
	# (6 s) each
	suite cli-fuzz \
		make -s -C "$UCT_ROOT/cli" test-fuzz OUT="$UCT_OUT" VMLINUX="$TOOL_VMLINUX"
	# the OpenMetrics documents of the unit tests' fixtures through
	# Prometheus' parsers and promtool, with no guest
	suite openmetrics-host "$UCT_ROOT/tests/host/openmetrics-host.sh"
	# a real Prometheus server scraping a guest's --listen through
	# QEMU's port forwarding, PromQL against a known workload
	suite prometheus "$UCT_ROOT/tests/host/prometheus.sh"
	# the textfile route: a guest's --prometheus -o file served by a
	# real node_exporter's textfile collector
	suite node-exporter "$UCT_ROOT/tests/host/node-exporter.sh"
	# the .deb's systemd unit: systemd-analyze verify and security,
	# and ucounttop run in a guest as the unit would, its calls
	# against the unit's SystemCallFilter
	suite systemd-unit "$UCT_ROOT/tests/host/systemd-unit.sh"
}
# the default matrix's host suites from a cache holding only what `make
# test` makes: a suite that needs another target's output (a tree only
# the full matrix builds) fails here, where this run's own warm cache
# would hide it from the suite itself
job_fresh_cache() { suite fresh-cache "$UCT_ROOT/tests/host/fresh-cache.sh"; }
# `make run` in a tmux pane: the demo read off the screen, q quits
job_make_run() { suite make-run "$UCT_ROOT/tests/host/make-run.sh"; }

# Debian's kernels: the ucounttop tests (00, 5*, check around the
# kselftests, around interrupt-context charges and around deleted timers)
# on each. A developer's run: stock 6.12 only, with the tests that read
# what differs between kernels (00, 50, 51, 57, 5E) and four that our
# guest then leaves to it (5A, 5B, 6A, 6B: the guests sleep more than
# they compute, so two at once take less time than one after the other).
# The full matrix: all of them on 6.12, all but those of the tool's own
# behaviour (stock_cli) on 6.1 and 7.x; on the PREEMPT_RT
# flavours, whose BTF and tool path are their version's, what PREEMPT_RT
# changes: the kernel-dependent tests and check around the kselftests,
# interrupt-context charges (threaded interrupts) and deleted timers
# (timers expire in a thread).
tests_named() { (cd "$UCT_ROOT/guest/tests" && for t; do ls $t-*.sh; done) | sed 's|^|/uct/tests/|' | tr '\n' ' '; }
stock_all=$(cd "$UCT_ROOT/guest/tests" && ls 00-*.sh 5*.sh 65-*.sh 6A-*.sh 6B-*.sh | sed 's|^|/uct/tests/|' | tr '\n' ' ')
stock_rt=$(tests_named 00 50 51 57 5E 65 6A 6B)
# the tool's own behaviour on the stock path, the same on every stock
# kernel (exit codes, OpenMetrics, the tty, the demo, a reused namespace
# inode, --listen, -o, a shared uid): on 6.12 only in the full matrix
stock_cli='53 55 56 58 59 5C 5F 5I'
stock_version=$(for t in $stock_all; do
	case " $stock_cli " in *" $(basename "$t" | cut -d- -f1) "*) ;; *) echo "$t" ;; esac
done | tr '\n' ' ')
dev_on_stock='5A 5B 6A 6B'
stock_dev=$(tests_named 00 50 51 57 5E $dev_on_stock)
# job_stock FLAVOUR...: the stock kernels one after another, each booting
# the initramfs of our tree of its version (the kselftests 65 runs
# around, built from matching sources; 7.x: mainline's), which
# tests/host/stock-kernel.sh makes, apart from that tree's own guest
job_stock() {
	local f tree tests
	for f; do
		case "$f" in
		7.*) tree=$MAINLINE_TREE ;;
		*) tree=${f%-rt} ;;
		esac
		case "$f" in
		6.12) tests=$stock_all ;;
		*-rt) tests=$stock_rt ;;
		*) tests=$stock_version ;;
		esac
		suite "stock-$f" env STOCK_TESTS="$tests" STOCK_TREE="$tree" \
			"$UCT_ROOT/tests/host/stock-kernel.sh" "$f"
	done
}
# the developer's: stock 6.12 with stock_dev, booting mainline's initramfs
job_stock_dev() { suite stock-6.12 env STOCK_TESTS="$stock_dev" "$UCT_ROOT/tests/host/stock-kernel.sh" 6.12; }
# a real Docker, containerd, Podman beside ucounttop, on stock 7.x
# (engines.sh)
job_engines() { suite engines "$UCT_ROOT/tests/host/engines.sh"; }
# job_tree KTREE: a stable tree with its backports, built here when it is
# not (kernel builds take turns: kernel.lock), then every guest test the
# fixes leave to run (tree-guest.sh)
job_tree() {
	suite "guest-$1" env KTREE="$1" TREE_TESTS=all TREE_BUILD=1 "$UCT_ROOT/tests/host/tree-guest.sh"
}
# the stable trees' series applied and the objects they touch compiled,
# where the full matrix builds neither tree's kernel (stable-build.sh)
job_stable_build() { suite stable-build "$UCT_ROOT/tests/host/stable-build.sh"; }
# the mainline debug kernel (built here when it is not), its guest, then
# the sweep's collections on it
job_debug() {
	suite debug-kernel env KTREE="$MAINLINE_TREE" DEBUG_BUILD=1 DEBUG_STRESS="${DEBUG_STRESS:-1}" "$UCT_ROOT/tests/host/debug-kernel.sh"
	suite sweep-debug env SWEEP_ON=debug SWEEP_ONLY="$(ci_sweep debug)" SWEEP_OUT="$LOGDIR/sweep-ci-debug" \
		"$UCT_ROOT/tests/host/kselftest-sweep.sh"
}
# CI's kselftest sweep (guest/sweep-ci.txt: the collections that charge
# the counters, each alone and under check); make sweep is every
# collection
ci_sweep() { sed -e 's/#.*//' "$UCT_ROOT/guest/sweep-ci.txt" | awk -v on="$1" 'index("," $2 ",", "," on ",") { print $1 }' | tr '\n' ' '; }

# The matrices. Each suite once, in the order of the report below:
#  dev   the host suites, our mainline guest without the stress suite
#        (70-73) and the kselftest runner (68), stock 6.12 (stock_dev)
#  full  CI, within its budget from a cold cache (docs/testing.md): dev's
#        suites and the mainline guest's every test, the kselftest sweep
#        on mainline, Debian's stock 6.1, 6.12, 6.12-rt, 7.x and 7.x-rt
#        (6.1 and 6.12 with their stable tree's kselftests), the engines,
#        a fresh cache, and the stable trees' series compiled where they
#        touch the kernel
#  all   full's and the kernels a cold CI has no time to build: the
#        mainline debug kernel (its guest and the sweep on it) and both
#        stable trees', booted with every guest test their series leave
#        to run (instead of full's compile check)
# Jobs are queued longest first (a kernel build ahead of what it boots)
# and taken by whichever worker is free: two in the background (niced:
# the mainline guest is the foreground's and the critical path of the
# developer's run), and the foreground once its mainline guest and sweep
# are done, so that a run ends about when its longest job does, warm or
# cold.
case "$MATRIX" in
dev)
	main_tests=$(cd "$UCT_ROOT/guest/tests" && ls ./*.sh | grep -v -e '^\./7' -e '^\./68-' \
		     $(for t in $dev_on_stock; do echo "-e ^\./$t-"; done) |
		     sed 's|^\./|/uct/tests/|' | tr '\n' ' ')
	stock_suites=(stock-6.12)
	tree_suites=() debug_suites=() sweep_suites=() extra_suites=()
	queue=('job_stock_dev' 'job_host' 'job_make_run') ;;
full | all)
	main_tests=
	stock_suites=(stock-6.1 stock-6.12 stock-6.12-rt stock-7.x stock-7.x-rt)
	tree_suites=() debug_suites=() sweep_suites=(sweep) extra_suites=(fresh-cache engines stable-build)
	queue=('job_stock 6.12 6.12-rt' 'job_stock 6.1' 'job_host' 'job_stock 7.x 7.x-rt'
	       'job_fresh_cache' 'job_engines' 'job_stable_build' 'job_make_run')
	if [ "$MATRIX" = all ]; then
		tree_suites=(guest-6.1 guest-6.12) debug_suites=(debug-kernel sweep-debug) extra_suites=(fresh-cache engines)
		queue=('job_debug' 'job_tree 6.1' 'job_tree 6.12' "${queue[@]:0:6}" 'job_make_run')
	fi ;;
esac

# take: the next queued job (a line), or fail when none is left
echo 0 > "$tmp/next"
take() {
	local i
	{
		flock 8
		i=$(cat "$tmp/next")
		echo $((i + 1)) > "$tmp/next"
	} 8>> "$tmp/queue.lock"
	[ "$i" -lt "${#queue[@]}" ] && echo "${queue[$i]}"
}
worker() {
	local job
	while job=$(take); do
		$job
	done
}
workers=()
for _ in 1 2; do
	{ renice -n 5 -p "$BASHPID" > /dev/null; worker; } &
	workers+=($!)
done

stage test "guest: booting once, $GUEST_SMP vCPUs, to run /uct/tests (console: $LOGDIR/guest-tests.console)"
( time { "$UCT_ROOT/guest/run" -q --smp "$GUEST_SMP" --timeout "$GUEST_TIMEOUT" \
	--console "$LOGDIR/guest-tests.console" --results "$tmp/guest.tap" \
	--export "$tmp/export" -- /uct/run-tests $main_tests 2>&3; echo "$?" > "$tmp/guest.rc"; } ) \
	3>&2 2> "$tmp/guest.time"
rc=$(cat "$tmp/guest.rc" 2> /dev/null) || rc="no exit status"
# what ucounttop --listen served in that boot (guest/tests/5C exports it),
# read by Prometheus' own parsers and promtool: seconds, on the host
suite openmetrics-endpoint "$UCT_ROOT/tests/host/openmetrics-endpoint.sh" "$tmp/export"
# CI's kselftest sweep on our mainline kernel (every matrix but dev's)
[ ${#sweep_suites[@]} = 0 ] || suite sweep env SWEEP_ONLY="$(ci_sweep mainline)" SWEEP_OUT="$LOGDIR/sweep-ci" \
	"$UCT_ROOT/tests/host/kselftest-sweep.sh"
stage test "guest: done, taking queued jobs beside the other two workers"
worker
wait "${workers[@]}"

# the report, in a fixed order however the jobs overlapped in time
for name in "${host_suites[@]}"; do
	tally_suite "$name"
done
tr -d '\r' < "$LOGDIR/guest-tests.console" | sed -n '/^uct-result: /d; /^=== /,$p'
cat "$tmp/guest.time" >> "$tmp/guest.tap"
tally guest "$tmp/guest.tap" "$rc"
for name in openmetrics-endpoint "${sweep_suites[@]}" "${stock_suites[@]}" "${extra_suites[@]}" \
	    "${debug_suites[@]}" make-run "${tree_suites[@]}"; do
	tally_suite "$name"
done

# the failures again, last: a log's tail (CI shows only that) names them
if [ -s "$tmp/failures" ]; then
	echo
	echo "# failed:"
	cat "$tmp/failures"
fi
echo
echo "$passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
[ "$failed" = 0 ]
