#!/bin/bash
# guest/run must pass the command's exit status through and must never read
# a panicked, hung or silent guest as success; what the guest exports
# reaches the host; run-tests keeps a whole test's skip reason. TAP;
# boots the guest 8 times.
set -uo pipefail
run=$(dirname "$0")/../../guest/run
n=0
check() { # check NAME EXPECTED_RC GUEST_RUN_ARGS...
	local name=$1 want=$2 got out
	shift 2
	n=$((n + 1))
	out=$("$run" -q "$@" 2>&1)
	got=$?
	if [ "$got" = "$want" ]; then
		echo "ok $n $name"
	else
		echo "not ok $n $name (exit $got, expected $want)"
		echo "$out" | tail -n 15 | sed 's/^/# /'
	fi
}
check "exit status 0 passes through" 0 -- true
check "exit status 7 passes through" 7 -- sh -c 'exit 7'
check "kernel panic is a guest failure (125)" 125 --timeout 60 -- sh -c 'echo c > /proc/sysrq-trigger; sleep 30'
check "hang is a guest failure (125) after --timeout" 125 --timeout 15 -- sleep 600
check "unknown option is a usage error (2)" 2 --no-such-option -- true

# Without -q the console goes through tee: a hang is still a timeout
n=$((n + 1))
out=$("$run" --timeout 15 -- sleep 600 2>&1 > /dev/null)
got=$?
if [ "$got" = 125 ] && grep -q 'timed out after 15s' <<< "$out"; then
	echo "ok $n hang without -q: exit 125, reported as a timeout"
else
	echo "not ok $n hang without -q: exit 125, reported as a timeout (exit $got)"
	echo "$out" | head -n 3 | sed 's/^/# /'
fi

n=$((n + 1))
tmp=$(mktemp)
"$run" -q --results "$tmp" -- sh -c 'echo hello-results > /dev/uct-results' > /dev/null 2>&1
if grep -qx 'hello-results' "$tmp"; then echo "ok $n /dev/uct-results reaches --results"
else echo "not ok $n /dev/uct-results reaches --results"; fi
rm -f "$tmp"

# $UCT_EXPORT comes back with --export, subdirectories included, and only then
n=$((n + 1))
tmp=$(mktemp -d)
"$run" -q --export "$tmp/x" -- sh -c 'mkdir -p $UCT_EXPORT/d && echo one > $UCT_EXPORT/a &&
	seq 1 20000 > $UCT_EXPORT/d/b' > /dev/null 2>&1
if [ "$(cat "$tmp/x/a" 2> /dev/null)" = one ] && seq 1 20000 | cmp -s - "$tmp/x/d/b"; then
	echo "ok $n \$UCT_EXPORT reaches --export DIR"
else
	echo "not ok $n \$UCT_EXPORT reaches --export DIR"
	ls -lR "$tmp" | sed 's/^/# /'
fi
rm -rf "$tmp"

# run-tests: a test that skips as a whole ("1..0 # SKIP why", exit 4) is
# one skip with its plan's reason, and one that prints no result its last
# "# " line's
n=$((n + 1))
tmp=$(mktemp -d)
printf '#!/bin/sh\necho "# not this"\necho "1..0 # SKIP no such hook"\nexit 4\n' > "$tmp/plan.sh"
printf '#!/bin/sh\necho "# no such file"\nexit 4\n' > "$tmp/bare.sh"
"$run" -q --add "$tmp/plan.sh" --add "$tmp/bare.sh" \
	--results "$tmp/tap" -- /uct/run-tests /uct/add/plan.sh /uct/add/bare.sh > /dev/null 2>&1
if [ "$(head -n 2 "$tmp/tap" 2> /dev/null)" = "ok 1 plan # SKIP no such hook
ok 2 bare # SKIP no such file" ]; then
	echo "ok $n run-tests: a whole test's skip keeps its reason"
else
	echo "not ok $n run-tests: a whole test's skip keeps its reason"
	sed 's/^/# /' "$tmp/tap" 2> /dev/null
fi
rm -rf "$tmp"
echo "1..$n"
