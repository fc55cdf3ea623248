#!/bin/sh
# The BPF selftest of the ucounts iterator (bpf-iter/ patch 2), run by
# test_progs built with only that test (guest/build-bpf-selftests.sh): one
# result per subtest (exact, small_reads_under_churn, scoped: two sibling
# subtrees read at once, no_ref_across_reads: a stalled reader keeps no
# namespace alive), its log as comments.
TP=/uct/selftests/bpf/test_progs
log=/tmp/test_progs-ucounts.log

echo "KTAP version 1"
[ -x "$TP" ] || { echo "1..1"; echo "not ok 1 $TP built"; exit 1; }
(cd "$(dirname "$TP")" && timeout 300 ./test_progs -v -t ucounts_iter) > "$log" 2>&1
rc=$?
sed 's/^/# /' "$log"
n=0
fails=0
# "#12/1    ucounts_iter/exact:OK"
for sub in exact small_reads_under_churn scoped no_ref_across_reads; do
	n=$((n + 1))
	if grep -qE "^#[0-9]+/[0-9]+ +ucounts_iter/$sub:OK\$" "$log"; then
		echo "ok $n ucounts_iter/$sub"
	else
		echo "not ok $n ucounts_iter/$sub"
		fails=$((fails + 1))
	fi
done
n=$((n + 1))
if [ "$rc" -eq 0 ] && grep -q '^Summary: 1/4 PASSED, 0 SKIPPED, 0 FAILED' "$log"; then
	echo "ok $n test_progs -t ucounts_iter: exit 0, 1/4 PASSED"
else
	echo "not ok $n test_progs -t ucounts_iter: exit $rc"
	fails=$((fails + 1))
fi
echo "1..$n"
[ "$fails" -eq 0 ]
