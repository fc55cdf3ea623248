#!/bin/sh
# 53: documented exit codes and messages: 2 usage, 3 missing privilege,
# 4 no BTF; --help teaches; SIGTERM detaches cleanly.
UCT=${UCT:-/uct/bin/ucounttop}
WL=${WL:-/uct/bin/uct-workload}
BPFTOOL=${BPFTOOL:-/usr/sbin/bpftool}
T=/tmp/t53
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ -x "$UCT" ] || exit 4

expect_rc() { # expect_rc RC GREP DESC -- CMD...
	want=$1 pat=$2 desc=$3; shift 4
	"$@" > $T/out 2> $T/err
	rc=$?
	check "$desc: exit $want (got $rc)" [ $rc -eq $want ]
	[ -n "$pat" ] && check "$desc: message matches '$pat'" [ -n "$(grep -e "$pat" $T/err $T/out)" ]
}

expect_rc 2 'see ucounttop --help' "unknown option" -- $UCT --bogus
expect_rc 2 'iterations' "-n 0" -- $UCT -n 0
expect_rc 2 'exclude each other' "-b with --json" -- $UCT -b --json
expect_rc 2 'nproc, msgqueue' "bad -t" -- $UCT -t cpu -b -n 1
expect_rc 2 'needs a command' "check without a command" -- $UCT check
expect_rc 5 "cannot run '/nonexistent'" "check: command not found" -- $UCT check -- /nonexistent
expect_rc 0 'Examples:' "--help" -- $UCT --help
expect_rc 0 'Exit status' "--help lists exit codes" -- $UCT --help

if [ -x "$WL" ]; then
	expect_rc 3 'CAP_BPF' "as uid 1000" -- $WL --exec-as 1000 -- $UCT -b -n 1
	# what the exit-3 message offers (setcap cap_bpf,cap_perfmon+ep): a
	# user with CAP_BPF (39) and CAP_PERFMON (38) alone can use every mode,
	# but not bind a port below 1024 without CAP_NET_BIND_SERVICE
	AS="$WL --exec-as-caps 1000 38,39 --"
	expect_rc 0 '^NAME' "uid 1000 with CAP_BPF+CAP_PERFMON: the live view" -- $AS $UCT -b -n 1
	expect_rc 0 '"events":true' "uid 1000 with CAP_BPF+CAP_PERFMON: --events" -- \
		$AS $UCT --json --events -n 1
	expect_rc 0 '"snapshot":"iter/task"' "uid 1000 with CAP_BPF+CAP_PERFMON: --task-iter" -- \
		$AS $UCT --json --task-iter -n 1
	expect_rc 0 '^# ucounttop check: clean' "uid 1000 with CAP_BPF+CAP_PERFMON: check" -- \
		$AS $UCT check -- /bin/true
	expect_rc 0 'tracing ucounts charges' "uid 1000 with CAP_BPF+CAP_PERFMON: trace, stopped by SIGTERM" -- \
		timeout 3 $AS $UCT trace
	expect_rc 3 'ports below 1024 need CAP_NET_BIND_SERVICE' \
		"uid 1000 with CAP_BPF+CAP_PERFMON: --listen 127.0.0.1:80" -- $AS $UCT --listen 127.0.0.1:80
else
	echo "# no $WL: skipping the unprivileged case"
fi

# no BTF: hide /sys/kernel/btf
if mount -t tmpfs none /sys/kernel/btf 2>/dev/null; then
	expect_rc 4 'CONFIG_DEBUG_INFO_BTF' "without /sys/kernel/btf/vmlinux" -- $UCT -b -n 1
	umount /sys/kernel/btf
fi

# SIGTERM, SIGHUP: clean exit, nothing left attached
for sig in TERM HUP; do
	# a file of its own, empty before the job starts (its redirection
	# happens in the child): the header seen must be this run's
	: > $T/$sig.out
	$UCT -b -d 0.2 > $T/$sig.out 2>&1 &
	u=$!
	i=0
	while ! grep -q '^NAME' $T/$sig.out 2>/dev/null && [ $i -lt 200 ]; do i=$((i + 1)); sleep 0.1; done
	kill -$sig $u
	wait $u
	rc=$?
	check "SIG$sig: exit 0 (got $rc)" [ $rc -eq 0 ]
	if [ -x "$BPFTOOL" ]; then
		# freed after an RCU grace period, later on a loaded machine:
		# wait for it, bounded (30 s)
		i=0
		while $BPFTOOL prog show > $T/progs 2>&1 &&
		      grep -qE 'tp_refused|overlimit_exit|snap_task|snap_ucounts' $T/progs &&
		      [ $i -lt 300 ]; do
			sleep 0.1; i=$((i + 1))
		done
		check "SIG$sig: programs detached" [ -z "$(grep -E 'tp_refused|overlimit_exit|snap_task|snap_ucounts' $T/progs)" ]
	fi
done
# a reader that goes away (| head) ends it quietly with 0
( $UCT --json -d 0.1; echo $? > $T/pipe.rc ) 2> $T/pipe.err | head -n 1 > /dev/null
check "--json | head -n 1: ends with exit 0 (got $(cat $T/pipe.rc))" [ "$(cat $T/pipe.rc)" = 0 ]
# batch output has no escape sequences
$UCT -b -n 2 -d 0.1 > $T/batch 2>&1
check "batch: no escape sequences" [ -z "$(grep "$(printf '\033')" $T/batch)" ]
# without -b, stdout not a terminal: batch all the same
$UCT -n 2 -d 0.1 > $T/auto 2> $T/auto.err
rc=$?
auto_is_batch() { [ $rc -eq 0 ] && grep -q '^NAME' $T/auto && [ -z "$(grep "$(printf '\033')" $T/auto)" ]; }
check "stdout a file, no -b: exit 0 (got $rc), batch output (NAME header, no escape sequence)" auto_is_batch
echo "1..$n"
