#!/bin/bash
# make test: the host suites beside one guest boot running the guest tests
# (and the stock- and debug-kernel guests after one another beside both);
# UCT_MATRIX=full (CI) for every kernel and test, see below.
# Each suite speaks TAP; its unindented "ok"/"not ok" lines are counted.
# The last line is "N passed, N failed[, N skipped]"; exit 1 on any failure.
set -uo pipefail
. "$(dirname "$0")/../guest/lib.sh"

# UCT_MATRIX=full (CI, .ci/run): every kernel and every test. The default,
# a developer's run: the host suites, our mainline guest without the
# stress suite (70-73) and the kselftest runner (68, a minute and a half
# of every collection under check), and Debian's stock 6.12 with the
# tests that read what differs between kernels; CI adds those two, the
# mainline debug kernel, the kselftest sweep of the collections that
# charge the counters (guest/sweep-ci.txt) on the mainline and its debug
# kernel, the stable trees' guests (6.12, 6.1: the fixes,
# their tests and the tool's stock path) and the stock 6.1, 6.12-rt and
# newest 7.x (amd64 and PREEMPT_RT) kernels.
MATRIX=${UCT_MATRIX:-dev}
case "$MATRIX" in
full | dev) ;;
*) die "UCT_MATRIX=$MATRIX: 'full' (CI) or 'dev' (the default)" ;;
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

# Three chains at once, so that a rerun takes about as long as the guest
# suite (the longest chain) and not the sum: the host suites, then the
# debug kernel's guest and make run; the stock kernels' guests, then the
# stable trees'; our mainline guest in front. The two background chains
# run niced: the mainline guest suite is the critical path, and they share what
# it leaves of this machine's two cores (guest-runner boots small guests
# too).
host_suites=(make-help contrib checkpatch splat-scan guest-runner guest-tools)
{
	renice -n 5 -p "$BASHPID" > /dev/null
	suite make-help "$UCT_ROOT/tests/host/make-help.sh"
	# contrib/'s Prometheus rules (promtool check/test) and Grafana
	# dashboard, on made-up series
	suite contrib "$UCT_ROOT/tests/host/contrib.sh"
	suite checkpatch "$UCT_ROOT/tests/host/checkpatch.sh"
	suite splat-scan "$UCT_ROOT/tests/host/splat-scan-test.sh"
	suite guest-runner "$UCT_ROOT/tests/host/guest-runner.sh"
	# the guest tools that need no guest (uct-timeout), on the host
	suite guest-tools "$UCT_ROOT/tests/host/guest-tools.sh"
	if [ -f "$UCT_ROOT/cli/Makefile" ]; then
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
	fi
	# the default matrix's host suites from a cache holding only what
	# `make test` makes: a suite that needs another target's output (a
	# tree only the full matrix builds) fails here, where this run's own
	# warm cache would hide it from the suite itself
	[ "$MATRIX" = full ] && suite fresh-cache "$UCT_ROOT/tests/host/fresh-cache.sh"
	# the host suites take about ten minutes: in the full matrix the debug
	# kernel's guest follows them here, then the 6.1 tree's, so that this
	# chain ends about when the stock kernels' does (that one has five
	# stock kernels and the 6.12 tree)
	[ "$MATRIX" = full ] && suite debug-kernel env KTREE="$MAINLINE_TREE" "$UCT_ROOT/tests/host/debug-kernel.sh"
	# `make run` in a tmux pane: the demo read off the screen, q quits
	suite make-run "$UCT_ROOT/tests/host/make-run.sh"
	[ "$MATRIX" = full ] && suite guest-6.1 env KTREE=6.1 TREE_TESTS=all "$UCT_ROOT/tests/host/tree-guest.sh"
} &
host_pid=$!
[ -f "$UCT_ROOT/cli/Makefile" ] && host_suites+=(manpage package core-relocs cli-unit cli-unit-asan cli-fuzz openmetrics-host prometheus
						node-exporter systemd-unit)
[ "$MATRIX" = full ] && host_suites+=(fresh-cache)

# Debian's kernels: the ucounttop tests (00, 5*, check around the
# kselftests, around interrupt-context charges and around deleted timers)
# on each. A developer's run: stock 6.12 only, with the tests that read
# what differs between kernels (00, 50, 51, 57, 5E) and four that our
# guest then leaves to it (5A, 5B, 6A, 6B: the guests sleep more than
# they compute, so two at once take less time than one after the other)
stock_all=$(cd "$UCT_ROOT/guest/tests" && ls 00-*.sh 5*.sh 65-*.sh 6A-*.sh 6B-*.sh | sed 's|^|/uct/tests/|' | tr '\n' ' ')
dev_on_stock='5A 5B 6A 6B'
stock_dev=$(cd "$UCT_ROOT/guest/tests" && ls 00-*.sh 50-*.sh 51-*.sh 57-*.sh 5E-*.sh \
	    $(for t in $dev_on_stock; do echo "$t-*.sh"; done) | sed 's|^|/uct/tests/|' | tr '\n' ' ')
if [ "$MATRIX" = full ]; then
	stock_suites=(stock-6.1 stock-6.12 stock-6.12-rt stock-7.x stock-7.x-rt engines guest-6.12)
	main_tests=
else
	stock_suites=(stock-6.12)
	main_tests=$(cd "$UCT_ROOT/guest/tests" && ls ./*.sh | grep -v -e '^\./7' -e '^\./68-' \
		     $(for t in $dev_on_stock; do echo "-e ^\./$t-"; done) |
		     sed 's|^\./|/uct/tests/|' | tr '\n' ' ')
fi
{
	renice -n 5 -p "$BASHPID" > /dev/null
	if [ "$MATRIX" = full ]; then
		# each with our tree of its version (7.x, the newest of
		# Debian's newer suites: mainline's): the kselftests check runs
		# around (65) built from matching sources
		for f in 6.1 6.12 6.12-rt 7.x 7.x-rt; do
			case "$f" in
			7.*) tree=$MAINLINE_TREE ;;
			*) tree=${f%-rt} ;;
			esac
			suite "stock-$f" env STOCK_TESTS="$stock_all" STOCK_TREE="$tree" \
				"$UCT_ROOT/tests/host/stock-kernel.sh" "$f"
		done
		# a real Docker beside ucounttop, on stock 7.x (engines.sh)
		suite engines "$UCT_ROOT/tests/host/engines.sh"
		# the stable trees with their backports: every guest test the
		# fixes leave to run (tree-guest.sh)
		suite guest-6.12 env KTREE=6.12 TREE_TESTS=all "$UCT_ROOT/tests/host/tree-guest.sh"
	else
		suite stock-6.12 env STOCK_TESTS="$stock_dev" "$UCT_ROOT/tests/host/stock-kernel.sh" 6.12
	fi
} &
guests_pid=$!

stage test "guest: booting once, $GUEST_SMP vCPUs, to run /uct/tests (console: $LOGDIR/guest-tests.console)"
( time { "$UCT_ROOT/guest/run" -q --smp "$GUEST_SMP" --timeout "$GUEST_TIMEOUT" \
	--console "$LOGDIR/guest-tests.console" --results "$tmp/guest.tap" \
	--export "$tmp/export" -- /uct/run-tests $main_tests 2>&3; echo "$?" > "$tmp/guest.rc"; } ) \
	3>&2 2> "$tmp/guest.time"
rc=$(cat "$tmp/guest.rc" 2> /dev/null) || rc="no exit status"
# what ucounttop --listen served in that boot (guest/tests/5C exports it),
# read by Prometheus' own parsers and promtool: seconds, on the host
suite openmetrics-endpoint "$UCT_ROOT/tests/host/openmetrics-endpoint.sh" "$tmp/export"
# CI's kselftest sweep (guest/sweep-ci.txt: the collections that charge
# the counters, each alone and under check) on our mainline kernel, then
# on its debug kernel, while the other two chains run; make sweep is
# every collection
sweep_suites=()
if [ "$MATRIX" = full ]; then
	ci_sweep() { sed -e 's/#.*//' "$UCT_ROOT/guest/sweep-ci.txt" | awk -v on="$1" 'index("," $2 ",", "," on ",") { print $1 }' | tr '\n' ' '; }
	suite sweep env SWEEP_ONLY="$(ci_sweep mainline)" SWEEP_OUT="$LOGDIR/sweep-ci" \
		"$UCT_ROOT/tests/host/kselftest-sweep.sh"
	suite sweep-debug env SWEEP_ON=debug SWEEP_ONLY="$(ci_sweep debug)" SWEEP_OUT="$LOGDIR/sweep-ci-debug" \
		"$UCT_ROOT/tests/host/kselftest-sweep.sh"
	sweep_suites=(sweep sweep-debug)
fi
stage test "guest: done, waiting for the host suites and the other kernels' guests"
wait "$host_pid" "$guests_pid"

for name in "${host_suites[@]}"; do
	tally_suite "$name"
done
tr -d '\r' < "$LOGDIR/guest-tests.console" | sed -n '/^uct-result: /d; /^=== /,$p'
cat "$tmp/guest.time" >> "$tmp/guest.tap"
tally guest "$tmp/guest.tap" "$rc"
tally_suite openmetrics-endpoint
for name in "${sweep_suites[@]}"; do
	tally_suite "$name"
done
for name in "${stock_suites[@]}"; do
	tally_suite "$name"
done
[ "$MATRIX" = full ] && tally_suite debug-kernel
tally_suite make-run
[ "$MATRIX" = full ] && tally_suite guest-6.1

# the failures again, last: a log's tail (CI shows only that) names them
if [ -s "$tmp/failures" ]; then
	echo
	echo "# failed:"
	cat "$tmp/failures"
fi
echo
echo "$passed passed, $failed failed$([ "$skipped" = 0 ] || echo ", $skipped skipped")"
[ "$failed" = 0 ]
