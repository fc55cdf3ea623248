#!/bin/bash
# `make run` as a person would use it: in a terminal (a tmux pane on a
# private server), the live view on the guest's console, read from the
# screen (capture-pane), left with `q` (send-keys). The two demo
# containers must be on the screen by name, each with uid 1000's row as
# the container sees it, the two that share uid 2000 in the host's user
# namespace must split its row, and quitting must end `make run` with status 0
# because the guest powered off. TAP. Bounded: the boot and the first
# screen within BOOT_SECS, the power-off within 120 s.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

BOOT_SECS=${BOOT_SECS:-420}
sock=uct-make-run-$$
tmp=$(mktemp -d)
n=0 fails=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n $*"; }
check() { local d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
tm() { tmux -L "$sock" "$@"; }
screen() { tm capture-pane -p -t run > "$tmp/screen" 2> /dev/null; }
cleanup() {
	tm kill-server 2> /dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

command -v tmux > /dev/null || { echo "1..0 # SKIP tmux missing (guest/deps.sh installs it)"; exit 0; }

# 160x40: wide enough for the demo's rows and a shared row's split by
# container; make run's status and the view's exit line land in files,
# not only on a screen that scrolls
tm -f /dev/null new-session -d -s run -x 160 -y 40 \
	"cd '$UCT_ROOT' && make -s run 2> '$tmp/stderr'; echo \$? > '$tmp/rc'; sleep 600"

# The first screen of the view: its header, then both containers' rows
# with their first refusal counted
seen=0
for ((i = 0; i < BOOT_SECS; i++)); do
	screen
	if grep -q 'NPROC' "$tmp/screen" && [ "$(grep -c 'uid 1000 ' "$tmp/screen")" -ge 2 ]; then
		seen=1
		break
	fi
	[ -f "$tmp/rc" ] && break
	sleep 1
done
check "the live view is on the screen (header and two uid 1000 rows)" [ "$seen" = 1 ]
if [ "$seen" != 1 ]; then
	sed 's/^/# screen: /' "$tmp/screen"
	sed 's/^/# stderr: /' "$tmp/stderr" 2> /dev/null
	echo "1..$n"
	exit 1
fi
sed 's/^/# /' "$tmp/screen"
# each namespace line ends with the container's name (Docker's, from
# the config.v2.json uct-demo.c writes; its hostname is the same, so
# shown once) and process
for c in web db; do
	check "container '$c' named on its namespace line" \
		grep -Eq "ns [0-9]+ .*/[^ ]+ $c uct-demo\([0-9]+\)" "$tmp/screen"
done

# uid 2000's row, shared by the demo's two containers in the host's user
# namespace: split 2 and 1, the worker's refusals on it (once it tried)
shared='uid 2000 .* in api 2, shop/worker-7d4b9/worker 1 \(refused [1-9][0-9]*\)$'
for ((i = 0; i < 60; i++)); do
	screen
	grep -Eq "$shared" "$tmp/screen" && break
	sleep 1
done
if grep -Eq "$shared" "$tmp/screen"; then
	ok "uid 2000's row split by container, the refusals on the worker"
	grep 'uid 2000' "$tmp/screen" | sed 's/^/# /'
else
	nok "uid 2000's row split by container, the refusals on the worker"
	sed 's/^/# screen: /' "$tmp/screen"
fi

tm send-keys -t run q
for ((i = 0; i < 120; i++)); do
	[ -f "$tmp/rc" ] && break
	sleep 1
done
check "q ends make run (within 120 s)" [ -f "$tmp/rc" ]
check "make run exits 0 (the guest powered off after ucounttop exited 0)" \
	[ "$(cat "$tmp/rc" 2> /dev/null)" = 0 ]
tm capture-pane -p -S - -t run > "$tmp/history" 2> /dev/null
check "the guest reported the view's exit status 0" grep -q 'ucounttop exited (0)' "$tmp/history"
echo "1..$n"
[ "$fails" = 0 ]
