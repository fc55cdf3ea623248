#!/bin/sh
# ucounttop's header states what the running kernel lacks, and agrees
# with the kernel's own BTF and tracefs: "degraded: none" with our series,
# the missing iterator and tracepoints named on a stock kernel. A hook the
# verifier refuses, or one that fails to attach, degrades the view instead
# of aborting it (forced with the test hooks UCOUNTTOP_TEST_REFUSE and
# UCOUNTTOP_TEST_FAIL_ATTACH). KTAP.
n=0
ok() { n=$((n + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); echo "not ok $n $1"; }
check() { if [ "$2" = 1 ]; then ok "$1"; else notok "$1"; fi; }

hdr=$(ucounttop -b -n 1 | grep '^degraded: ')
echo "# $hdr"
has_iter=0
bpftool btf dump file /sys/kernel/btf/vmlinux format raw |
	grep -q "STRUCT 'bpf_iter__ucounts'" && has_iter=1
has_tp=0
[ -d /sys/kernel/tracing/events/ucounts/ucounts_rlimit_refused ] && has_tp=1

r=0; [ -n "$hdr" ] && r=1
check "batch header has a degraded: line" $r
if [ "$has_iter" = 1 ]; then
	r=1; echo "$hdr" | grep -q 'no iter/ucounts' && r=0
	check "iter/ucounts present: not reported missing" $r
else
	r=0; echo "$hdr" | grep -q 'no iter/ucounts (kernel without the ucounttop series)' && r=1
	check "iter/ucounts absent: reported, with its effect" $r
fi
if [ "$has_tp" = 1 ]; then
	r=1; echo "$hdr" | grep -q 'no ucounts_rlimit_refused' && r=0
	check "refusal tracepoint present: not reported missing" $r
else
	r=0; echo "$hdr" | grep -q 'no ucounts_rlimit_refused tracepoint: denials read from the callers'\'' checks' && r=1
	check "refusal tracepoint absent: reported, with its effect" $r
fi
r=0
ucounttop --json -n 1 | grep -q '"degraded":' && r=1
check "--json carries the degraded field" $r

# the refusal hook this kernel uses, and the one it falls back to
if [ "$has_tp" = 1 ]; then
	hook=tp_btf:ucounts_rlimit_refused
	UCOUNTTOP_TEST_REFUSE=$hook ucounttop -b -n 1 > /tmp/57.refuse 2>&1
	r=$?
	check "verifier refuses $hook: exit 0 (got $r)" $([ $r = 0 ] && echo 1)
	# the v3 series' ucounts_overlimit(), or is_rlimit_overlimit()
	fallback=fexit:is_rlimit_overlimit
	grep -qw ucounts_overlimit /proc/kallsyms && fallback=fexit:ucounts_overlimit
	r=0; grep "^sort " /tmp/57.refuse | grep -q " hooks .*$fallback" && r=1
	check "verifier refuses $hook: falls back to $fallback" $r
	r=0; grep -q "^degraded: .*refused by the verifier: $hook" /tmp/57.refuse && r=1
	check "verifier refuses $hook: degraded: names it" $r
else
	hook=fexit:is_rlimit_overlimit
fi
UCOUNTTOP_TEST_FAIL_ATTACH=$hook ucounttop -b -n 1 > /tmp/57.drop 2>&1
r=$?
check "$hook fails to attach: the view still runs, exit 0 (got $r)" $([ $r = 0 ] && echo 1)
r=0; grep -q "^degraded: .*$hook not attached (Operation not supported): no .*denials counted" /tmp/57.drop && r=1
check "$hook fails to attach: degraded: names it and what is lost" $r
r=1; grep "^sort " /tmp/57.drop | grep -q " hooks .*$hook" && r=0
check "$hook fails to attach: not listed in hooks:" $r
grep -E '^(sort|degraded)' /tmp/57.drop | sed 's/^/# /'

# check: an evidence hook lost is named in the report, the check still runs
UCOUNTTOP_TEST_FAIL_ATTACH=fexit:mqueue_get_inode ucounttop check -- true > /tmp/57.check 2>&1
r=$?
check "check without fexit:mqueue_get_inode: still runs, exit 0 (got $r)" $([ $r = 0 ] && echo 1)
r=0; grep -q "^# degraded: fexit:mqueue_get_inode not attached" /tmp/57.check && r=1
check "check without fexit:mqueue_get_inode: the report's degraded: names it" $r
echo "1..$n"
