#!/bin/sh
# The BPF selftest of the ucounts iterator (bpf-iter/ patch 2), run by
# test_progs built with only that test (guest/build-bpf-selftests.sh): one
# result per subtest it reports, each passed (v4: held_once and
# held_once_small_reads, 64 held namespaces' ucounts each shown once, read
# 64 KiB and 37 bytes at a time; scope, a reader in a new user namespace
# sees only its own; v3 had four others), at least three of them, its log
# as comments.
TP=/uct/selftests/bpf/test_progs
log=/tmp/test_progs-ucounts.log

echo "KTAP version 1"
[ -x "$TP" ] || { echo "1..1"; echo "not ok 1 $TP built"; exit 1; }
(cd "$(dirname "$TP")" && timeout 300 ./test_progs -v -t ucounts_iter) > "$log" 2>&1
rc=$?
sed 's/^/# /' "$log"
n=0
fails=0
# "#12/1    ucounts_iter/held_once:OK"
subs=$(sed -n -E 's|^#[0-9]+/[0-9]+ +ucounts_iter/([a-z_]+):.*|\1|p' "$log")
for sub in $subs; do
	n=$((n + 1))
	if grep -qE "^#[0-9]+/[0-9]+ +ucounts_iter/$sub:OK\$" "$log"; then
		echo "ok $n ucounts_iter/$sub"
	else
		echo "not ok $n ucounts_iter/$sub"
		fails=$((fails + 1))
	fi
done
n=$((n + 1))
if [ "$n" -ge 4 ] && [ "$rc" -eq 0 ] &&
   grep -qE "^Summary: 1/$((n - 1)) PASSED, 0 SKIPPED, 0(/0)? FAILED" "$log"; then
	echo "ok $n test_progs -t ucounts_iter: exit 0, 1/$((n - 1)) PASSED"
else
	echo "not ok $n test_progs -t ucounts_iter: exit $rc"
	fails=$((fails + 1))
fi
echo "1..$n"
[ "$fails" -eq 0 ]
