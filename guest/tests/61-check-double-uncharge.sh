#!/bin/sh
# `ucounttop check` reports a double uncharge, and nothing else: uct_fault's
# "double" uncharges 2 processes from (ns, uid 0) of a user namespace that
# were never charged (the namespace holds 3 processes, so the counter never
# goes below zero: only the evidence - no task left - convicts it). KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
load_module
start_holder
$U check --json -o $J -- nsenter -U -t $holder sh -c "echo double nproc 2 > $I"
rc=$?
want="{\"class\":\"double_uncharge\",\"failing\":true,\"ns\":$ns,\"level\":1,\"uid\":0,\"type\":\"nproc\",\"amount\":2,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "double-uncharge at ns $ns level 1 uid 0, nproc, amount 2" has_finding "$want"
check "no finding of any other class" is_only double_uncharge
check "its unmatched uncharge stack is uct_fault's inject_write" has_stack "$want" unmatched inject_write
stop_holder
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
