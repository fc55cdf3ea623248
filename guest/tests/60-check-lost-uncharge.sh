#!/bin/sh
# `ucounttop check` reports a lost uncharge, and nothing else: uct_fault's
# "leak" charges 3 processes to (ns, uid 0) of a user namespace and never
# uncharges them. The row must be the namespace's, not one of its levels
# above (which the charge reached too). CMD then exits 3: a failing finding
# gives 1 whatever CMD did, and the report still says how CMD ended. KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
load_module
start_holder
$U check --json -o $J -- nsenter -U -t $holder sh -c "echo leak nproc 3 > $I; exit 3"
rc=$?
want="{\"class\":\"lost_uncharge\",\"failing\":true,\"ns\":$ns,\"level\":1,\"uid\":0,\"type\":\"nproc\",\"amount\":3,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "report: CMD's own exit status 3" grep -q '"exit_status":3,"signal":null,' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "lost-uncharge at ns $ns level 1 uid 0, nproc, amount 3" has_finding "$want"
check "no finding of any other class" is_only lost_uncharge
check "its open charge stack is uct_fault's inject_write" has_stack "$want" open inject_write
stop_holder
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
