#!/bin/sh
# `ucounttop check` reports a charge admitted over the limit, and nothing
# else: uid 2064, with RLIMIT_NPROC 1 and one process, has uct_fault "admit"
# 2 more processes - charged, then passed by an off-by-2 limit check (the
# RLIMIT_NPROC+1 bug's shape) - that a work item uncharges 200 ms later, so
# the counter ends where it began. The write goes through a descriptor root
# opened before dropping to uid 2064. KTAP.
. /uct/tests/lib/check-fault.sh

echo "KTAP version 1"
load_module
exec 3> $I
$U check --json -o $J -- /uct/bin/uct-workload --exec-as 2064 -- /bin/sh -c 'ulimit -u 1 && echo admit nproc 2 >&3'
rc=$?
exec 3>&-
want="{\"class\":\"admitted_over_limit\",\"failing\":true,\"ns\":$init_ns,\"level\":0,\"uid\":2064,\"type\":\"nproc\",\"amount\":2,"
check "check exits 1 (got $rc)" [ $rc -eq 1 ]
check "report: result fail, exit_code 1" grep -q '"result":"fail","exit_code":1,' $J
check "exactly one failing finding (got $(failing))" [ "$(failing)" = 1 ]
check "admitted-over-limit at ns $init_ns level 0 uid 2064, nproc, amount 2" has_finding "$want"
check "over at level 0 (uid 2064): 3 processes, limit 1" finding_has "$want" \
	"\"at\":{\"ns\":$init_ns,\"level\":0,\"uid\":2064,\"value\":3,\"limit\":1}"
check "no finding of any other class" is_only admitted_over_limit
check "the limit check that said within limits was called from inject_write" \
	has_stack "$want" check inject_write
unload_module
[ $fails -eq 0 ] || show
echo "1..$n"
[ $fails -eq 0 ]
