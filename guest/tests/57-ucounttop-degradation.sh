#!/bin/sh
# ucounttop's header states what the running kernel lacks, and agrees
# with the kernel's own BTF and tracefs: "degraded: none" with our series,
# the missing iterator and tracepoints named on a stock kernel. KTAP.
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
	r=0; echo "$hdr" | grep -q 'no ucounts_rlimit_refused tracepoint: only nproc denials' && r=1
	check "refusal tracepoint absent: reported, with its effect" $r
fi
r=0
ucounttop --json -n 1 | grep -q '"degraded":' && r=1
check "--json carries the degraded field" $r
echo "1..$n"
