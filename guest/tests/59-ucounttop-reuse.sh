#!/bin/sh
# Statistics belong to an object, not to a name (KTAP). One ucounttop runs
# while uct-workload --denials runs twice, one after the other. The second
# run's namespace D1 usually gets the first one's inode back (nsfs inode
# numbers are reused lowest first), and the rows (init, 1004) and (D1, 1005)
# are new struct ucounts under the same names. Each must show exactly the
# second run's refusals and limit hits, never the sum of both.
. /uct/tests/lib/ktap.sh
UCT=/uct/bin/ucounttop
WL=/uct/bin/uct-workload
T=/tmp/t59
mkdir -p $T
echo "KTAP version 1"
row() { sed 's/{"ns":/\n{"ns":/g' "$1" | grep "^{\"ns\":$2,\"level\":[0-9]*,\"uid\":$3,"; }
field() { echo "$1" | sed -n "s/.*\"$2\":{[^}]*\"$3\":\([-0-9]*\).*/\1/p"; }
docs() { grep -c ']}$' $T/stream 2>/dev/null || echo 0; }
more_docs() { [ "$(docs)" -ge "$1" ]; }
has_row() { grep ']}$' $T/stream | tail -n 1 > $T/last.json; [ -n "$(row $T/last.json $1 $2)" ]; }
no_row() { ! has_row "$@"; }

if ! grep -q btf_trace_ucounts_free /sys/kernel/btf/vmlinux 2>/dev/null; then
	echo "# kernel without the ucounts_free tracepoint: statistics cannot follow frees"
	exit 4
fi
$UCT --json -d 0.3 > $T/stream 2> $T/err &
u=$!
waitfor 300 more_docs 1 || { fail "ucounttop attached"; cat $T/err; kill $u; exit 1; }

# one run of the workload: holds until READY has been seen twice in the view
run_once() { # run_once NAME
	$WL --denials > $T/$1.wl 2> $T/$1.err &
	wl_pid=$!
	waitfor 600 grep -q '^READY' $T/$1.wl || { fail "$1: workload ready"; cat $T/$1.err; }
	have=$(docs)
	waitfor 300 more_docs $((have + 2))
	grep ']}$' $T/stream | tail -n 1 > $T/$1.json
	kill $wl_pid; wait $wl_pid
}

run_once first
d1=$(grep '^NS D1' $T/first.wl | cut -d' ' -f3)
init=$(grep '^NS init' $T/first.wl | cut -d' ' -f3)
deny1=$(field "$(row $T/first.json $d1 1005)" nproc denials)
hits1=$(field "$(row $T/first.json $init 1004)" nproc limit_hits)
expect "first run: D1 uid 1005 nproc denials" "$deny1" 3
expect "first run: (init, 1004) nproc limit hits" "$hits1" 3
# both rows gone (their ucounts freed) before the second run
waitfor 300 no_row $d1 1005 || fail "first run's D1 row freed"
waitfor 300 no_row $init 1004 || fail "first run's (init, 1004) row freed"

run_once second
d1b=$(grep '^NS D1' $T/second.wl | cut -d' ' -f3)
echo "# D1 inode: first run $d1, second run $d1b"
for type in nproc msgqueue sigpending memlock; do
	want=$(grep "^DENY .* $type " $T/second.wl | cut -d' ' -f5)
	got=$(field "$(row $T/second.json $d1b 1005)" $type denials)
	expect "second run: D1 uid 1005 $type denials are the second run's own" "$got" "$want"
done
expect "second run: (init, 1004) nproc limit hits are the second run's own" \
	"$(field "$(row $T/second.json $init 1004)" nproc limit_hits)" 3
if [ "$d1b" = "$d1" ]; then
	pass "the second D1 reused the first one's inode (the case under test)"
else
	pass "the second D1 got another inode # SKIP inode $d1 was not reused this time"
fi
kill -INT $u
wait $u
echo "1..$n"
[ "$fails" -eq 0 ]
