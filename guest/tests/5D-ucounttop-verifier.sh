#!/bin/sh
# 5D: what the verifier spends on each BPF program ucounttop loads, from
# its own statistics (UCOUNTTOP_VERIFIER_STATS=1 with -v: log level 4,
# printed by libbpf after each load). Every mode that loads a different
# set of programs: the default view, --events (tracepoints and, with
# --no-tracepoints, fexit), the task iterator's snapshot, trace, and check
# (both snapshot programs). Each program must verify in at most LIMIT
# instructions processed: a walk up the namespace chain unrolled
# UCT_MAX_LEVELS times instead of a bpf_loop() goes far past it (the task
# iterator, slow to load under TCG on a stock kernel, and check's fexit on
# inc_rlimit_ucounts). Runs on our kernel and the stock one. KTAP.
. /uct/tests/lib/ktap.sh
UCT=${UCT:-/uct/bin/ucounttop}
T=/tmp/t5d
LIMIT=20000
mkdir -p $T
echo "KTAP version 1"

# stats MODE: "MODE program insns usecs" per program loaded, from the
# libbpf messages on stdin
stats() {
	awk -v m="$1" "
		/-- BEGIN PROG LOAD LOG --/ { split(\$0, a, \"'\"); p = a[2] }
		/^verification time/ { t = \$3 }
		/^processed [0-9]+ insns/ { print m, p, \$2, t }"
}

# run MODE MIN ARGS...: ucounttop ARGS with the statistics on; at least
# MIN programs must report them and the command must exit 0
run() {
	mode=$1 min=$2
	shift 2
	UCOUNTTOP_VERIFIER_STATS=1 "$@" > $T/$mode.out 2> $T/$mode.err
	rc=$?
	stats "$mode" < $T/$mode.err > $T/$mode.stats
	expect "$mode: exits 0" "$rc" 0
	expect "$mode: at least $min programs report the verifier's statistics" \
		"$([ "$(wc -l < $T/$mode.stats)" -ge "$min" ] && echo yes)" yes
	[ "$rc" = 0 ] || tail -n 5 $T/$mode.err | sed 's/^/# /'
}

run view 2 $UCT -v -b -n 1
run events 4 $UCT -v -b -n 1 --events
run fexit 4 $UCT -v -b -n 1 --events --no-tracepoints
run taskiter 2 $UCT -v -b -n 1 --task-iter
run trace 4 $UCT trace -v --duration 0.5
run check 10 $UCT check -v -- true
run check-taskiter 10 $UCT check -v --task-iter -- true

cat $T/*.stats > $T/all
echo "# mode program: instructions processed, verification time (us)"
sort -k3,3nr $T/all | awk '{ printf "# %s %s: %d, %d\n", $1, $2, $3, $4 }'
expect "every program verifies within $LIMIT instructions processed" \
	"$(awk -v l=$LIMIT '$3 > l { print $1, $2, $3 }' $T/all)" ""
# the programs that walk the chain: present in the modes that load them
expect "the task iterator's snapshot program was among those measured" \
	"$(grep -cE '^(taskiter|check-taskiter) (ck_)?snap_task ' $T/all)" 2
echo "1..$n"
[ "$fails" -eq 0 ]
