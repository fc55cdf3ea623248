#!/bin/sh
# `ucounttop check` reports a hierarchy mismatch, and nothing else:
# uct_fault's "skiplevel" adds 3 processes to (ns, uid 0) of a user
# namespace directly, without charging the level above it (init, uid 0).
# KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
load_module
start_holder
$U check --json -o $J -- nsenter -U -t $holder sh -c "echo skiplevel nproc 3 > $I"
rc=$?
want="{\"class\":\"hierarchy_mismatch\",\"failing\":true,\"ns\":$ns,\"level\":1,\"uid\":0,\"type\":\"nproc\",\"amount\":3,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "hierarchy-mismatch at ns $ns level 1 uid 0, nproc, amount 3" has_finding "$want"
check "the level it did not reach: ns $init_ns level 0 uid 0" \
	finding_has "$want" "\"at\":{\"ns\":$init_ns,\"level\":0,\"uid\":0,"
check "no finding of any other class" is_only hierarchy_mismatch
stop_holder
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
