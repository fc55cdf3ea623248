#!/bin/sh
# The make run demo, checked: the same uid (1000) runs a service in two
# sibling user namespaces under RLIMIT_NPROC=1. ucounttop must show each
# namespace's row at value 1 with the leaf limit 1 (the tasks' own rlimit,
# caller_limit), both rows as children of root's row, the refused
# second workers as denials, and each namespace named by its container
# (id, hostname, process). KTAP.
UCT=/uct/bin/ucounttop
T=/tmp/t58
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
field() { echo "$1" | sed -n "s/.*\"$2\":{[^}]*\"$3\":\([-0-9a-z]*\).*/\1/p"; }

[ -x /uct/bin/uct-demo ] || { echo "# no uct-demo"; exit 4; }
# created before the job starts: its redirection happens in the child
: > $T/demo.log
uct-demo 1 > $T/demo.log 2>&1 &
demo=$!
trap 'kill $demo 2>/dev/null; wait $demo 2>/dev/null' EXIT
i=0
while [ "$(grep -c 'refused' $T/demo.log)" -lt 4 ] && [ $i -lt 100 ]; do
	sleep 0.1
	i=$((i + 1))
done
check "both services refused a second worker (EAGAIN)" \
	[ "$(grep -c 'second worker refused: Resource temporarily unavailable' $T/demo.log)" -ge 2 ]

# Denials count from attach: watch for 3 refreshes (a refusal a second).
$UCT --json -n 3 -d 1 > $T/all.json
check "ucounttop --json -n 3 -d 1 exits 0" [ $? -eq 0 ]
check "one JSON document per line" [ "$(grep -c '^{"schema":"ucounttop/1"' $T/all.json)" -eq 3 ]
tail -n 1 $T/all.json > $T/out.json
sed 's/{"ns":/\n{"ns":/g' $T/out.json | grep '^{"ns":[0-9]*,"level":1,"uid":1000,' > $T/rows
check "two level-1 rows for uid 1000" [ "$(wc -l < $T/rows)" -eq 2 ]
k=0
while IFS= read -r r; do
	k=$((k + 1))
	check "container $k: nproc value 1" [ "$(field "$r" nproc value)" = 1 ]
	check "container $k: nproc caller_limit 1 (RLIMIT_NPROC)" \
		[ "$(field "$r" nproc caller_limit)" = 1 ]
	check "container $k: parent is root's row in the initial namespace" \
		sh -c "echo '$r' | grep -q '\"parent_ns\":[0-9]*,\"parent_uid\":0,'"
	d=$(field "$r" nproc denials)
	check "container $k: refused forks counted as denials ($d)" [ "${d:-0}" -ge 1 ]
done < $T/rows
$UCT -b -n 1 > $T/out.txt
# named from the containers' root, the guest's: /etc/passwd's alice
check "batch view shows 1/1 for both containers' uid 1000 (alice)" \
	[ "$(grep -c 'uid 1000 (alice)  *1/1 ' $T/out.txt)" -eq 2 ]
# named as a runtime leaves a container: docker's cgroup (short id), its
# own hostname, the service's process
check "every row's uid mapped in its namespace (root's too, which made the UTS namespace)" \
	sh -c "! grep -q 'uid -(k' $T/out.txt"
check "the web container's namespace line: its name (once: its hostname too), process" \
	grep -Eq '^ *ns [0-9]+ .*/[^ ]+ web uct-demo\([0-9]+\)$' $T/out.txt
check "the db container's namespace line: its name, process" \
	grep -Eq '^ *ns [0-9]+ .*/[^ ]+ db uct-demo\([0-9]+\)$' $T/out.txt
# the services die with the demo (its parent-death signal survives their
# setresuid()): none left to go on forking into later tests
kill $demo
wait $demo
demos() { for p in /proc/[0-9]*; do c=; read -r c < $p/comm 2>/dev/null; [ "$c" = uct-demo ] && echo "${p#/proc/}"; done; }
i=0
while [ -n "$(demos)" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
check "the demo stopped: no uct-demo process left (got '$(demos)')" [ -z "$(demos)" ]
echo "1..$n"
