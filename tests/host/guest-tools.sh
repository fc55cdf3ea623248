#!/bin/bash
# The guest tools that need no kernel of their own, run on the host:
# uct-timeout, the sweep's /usr/bin/timeout (guest/sweep.sh), must end a
# test's whole process group, pass the test's status through and exit 124
# on a timeout, which is how kselftest's runner tells one. TAP.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"
tmp=$(mktemp -d)
trap 'pkill -KILL -f "$tmp/marker" 2> /dev/null; rm -rf "$tmp"' EXIT
. "$UCT_ROOT/tests/host/lib/tap.sh"
T=$UCT_OUT/tools/uct-timeout
[ -x "$T" ] || { nok "uct-timeout is built ($T: run make tools)"; finish; }

# is_rc NAME WANT CMD...
is_rc() {
	local name=$1 want=$2 got
	shift 2
	"$@" > "$tmp/out" 2>&1
	got=$?
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		nok "$name (exit $got, expected $want)"
		diag < "$tmp/out"
	fi
}

is_rc "CMD's exit status passes through" 3 "$T" 60 sh -c 'exit 3'
is_rc "a CMD killed by SIGUSR1 exits 128 + 10" 138 "$T" 60 sh -c 'kill -USR1 $$'
is_rc "a CMD that cannot run exits 127" 127 "$T" 60 "$tmp/no-such-command"
is_rc "SECS that are not whole seconds are a usage error (125)" 125 "$T" 1.5 true
is_rc "no CMD is a usage error (125)" 125 "$T" 60

# A child that outlives the test: gone once uct-timeout returns. A dead
# child whose parent died may stay a zombie until the host's init reaps
# it; only a live one counts.
cp /bin/sleep "$tmp/marker"
is_rc "SECS passed: exit 124" 124 "$T" 1 sh -c "\"$tmp/marker\" 300 & exec \"$tmp/marker\" 301"
# none_alive NAME: ok when no marker process is alive
none_alive() {
	local alive
	alive=$(pgrep -f "$tmp/marker" | while read -r p; do
		[ "$(awk '{ print $3 }' "/proc/$p/stat" 2> /dev/null)" = Z ] || echo "$p"
	done)
	if [ -z "$alive" ]; then
		ok "$1"
	else
		nok "$1 (alive: $alive)"
	fi
}
none_alive "the timed-out test's background child is gone with it"
# a descendant in a session and group of its own (a kselftest harness's
# test is in a group of its own), ignoring SIGTERM: gone too
is_rc "a descendant in a group of its own ignoring SIGTERM: exit 124" 124 \
	"$T" -k 1 1 sh -c "setsid sh -c 'trap \"\" TERM; exec \"$tmp/marker\" 303' & exec \"$tmp/marker\" 304"
none_alive "that descendant is gone with the test"
# a test that ignores SIGTERM is killed KILL_SECS later
is_rc "a test ignoring SIGTERM is killed after -k and still exits 124" 124 \
	"$T" -k 1 1 sh -c "trap '' TERM; \"$tmp/marker\" 302"
finish
