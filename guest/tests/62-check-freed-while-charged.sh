#!/bin/sh
# `ucounttop check` reports a ucounts freed while charged, and nothing
# else: uct_fault's "free" charges 2 processes to a fresh (init, uid 4242)
# and drops its last reference. Needs the ucounts_free tracepoint (patch
# 5): skipped without it, as check skips the class. KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
if [ ! -d /sys/kernel/tracing/events/ucounts/ucounts_free ]; then
	echo "1..0 # SKIP kernel without the ucounts_free tracepoint: check skips this class"
	exit 4
fi
load_module
$U check --json -o $J -- sh -c "echo free nproc 2 > $I"
rc=$?
want="{\"class\":\"freed_while_charged\",\"failing\":true,\"ns\":$init_ns,\"level\":0,\"uid\":4242,\"type\":\"nproc\",\"amount\":2,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "freed-while-charged is checked" grep -q '"freed_while_charged":{"checked":true' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "freed-while-charged at ns $init_ns level 0 uid 4242, nproc, amount 2" has_finding "$want"
check "no finding of any other class" is_only freed_while_charged
check "its free stack is put_ucounts" has_stack "$want" free put_ucounts
check "its never-uncharged charge is uct_fault's inject_write" has_stack "$want" open inject_write
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
