#!/bin/bash
# ucounttop.service, the .deb's unit (packaging/debian), tested as far as
# a guest without systemd as its init allows:
#  - systemd-analyze verify finds nothing wrong with it (its ExecStart
#    pointed at the unpacked binary), and systemd-analyze security's
#    exposure score, stated, is at most 3.0 ("OK");
#  - in a guest, ucounttop runs as the unit runs it: the unit's user, its
#    AmbientCapabilities alone (uct-workload --exec-as-caps), the command
#    line of its ExecStart with /etc/default/ucounttop's values, under
#    strace -f. Beside uct-workload --names (a namespace whose own
#    /etc/passwd names its uid n1-app), two scrapes must answer with the
#    counters and that name (read through /proc/PID/root: the helpers'
#    capabilities work), and SIGTERM end it with status 0;
#  - every system call it made from its execve() on is one the unit's
#    SystemCallFilter allows (as systemd-analyze syscall-filter expands
#    the groups), so that systemd's filter, which no test here runs,
#    refuses none of them.
# TAP. Bounded: the guest within BOOT_SECS.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

BOOT_SECS=${BOOT_SECS:-600}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"
. "$(dirname "$0")/lib/cli.sh"

for t in systemd-analyze strace; do
	if ! command -v "$t" > /dev/null; then
		nok "$t is installed (guest/deps.sh)"
		finish
	fi
done
# the package, unpacked: the unit and the default file as installed
deb=$(make -s -C "$UCT_ROOT" deb UCOUNTTOP="$bin" DEB_DIR="$tmp/deb" 2> "$tmp/err" | tail -n 1)
root=$tmp/root
if [ ! -f "$deb" ] || ! dpkg -x "$deb" "$root" 2>> "$tmp/err"; then
	nok "make deb builds the package with the unit"
	diag < "$tmp/err"
	finish
fi
unit=$root/lib/systemd/system/ucounttop.service
default=$root/etc/default/ucounttop

sed "s#^ExecStart=/usr/sbin/ucounttop#ExecStart=$root/usr/sbin/ucounttop#" "$unit" > "$tmp/ucounttop.service"
systemd-analyze verify --man=no "$tmp/ucounttop.service" > "$tmp/verify" 2>&1
expect "systemd-analyze verify finds nothing wrong with the unit (exit $?)" "$(cat "$tmp/verify")" ""
score=$(systemd-analyze security --offline=true "$unit" 2>&1 |
	sed -n 's/.*Overall exposure level for ucounttop.service: \([0-9.]*\) .*/\1/p')
expect "systemd-analyze security: exposure ${score:-?} of 10, at most 3.0" \
	"$(awk -v s="${score:-99}" 'BEGIN { print (s <= 3.0) ? "ok" : "over" }')" ok

# the unit's command line and capabilities, as systemd would give them
# shellcheck disable=SC1090 # the package's default file
. "$default"
args="--listen $UCOUNTTOP_LISTEN $UCOUNTTOP_ARGS"
caps=
for c in $(sed -n 's/^AmbientCapabilities=//p' "$unit"); do
	num=$(sed -n "s/^#define $c[[:space:]]*\([0-9]*\)\$/\1/p" /usr/include/linux/capability.h)
	[ -n "$num" ] || { nok "the unit's $c is a capability of linux/capability.h"; finish; }
	caps=${caps:+$caps,}$num
done
user=$(sed -n 's/^User=//p' "$unit")
cat > "$tmp/guest.sh" << EOF
uct-workload --names > /tmp/wl.out 2>&1 &
i=0
until grep -q '^READY' /tmp/wl.out; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/wl.out; exit 1; }
	usleep 100000
done
uid=\$(awk -F: -v u=$user '\$1 == u { print \$3 }' /etc/passwd)
/usr/bin/strace -f -qq -o \$UCT_EXPORT/strace.log \\
	uct-workload --exec-as-caps \$uid $caps -- /uct/bin/ucounttop $args 2> /tmp/u.err &
u=\$!
i=0
until grep -q '^ucounttop: serving' /tmp/u.err; do
	i=\$((i + 1)); [ \$i -gt 3000 ] && { cat /tmp/u.err; exit 1; }
	usleep 100000
done
wget -q -O \$UCT_EXPORT/scrape1 http://$UCOUNTTOP_LISTEN/metrics
wget -q -O \$UCT_EXPORT/scrape2 http://$UCOUNTTOP_LISTEN/metrics
# SIGTERM to ucounttop, strace's child, as systemd would stop it; strace
# exits with its status
for p in /proc/[0-9]*; do
	[ "\$(cut -d' ' -f4 \$p/stat 2> /dev/null)" = "\$u" ] && kill -TERM "\${p#/proc/}"
done
wait \$u
echo "UNIT-EXIT \$?"
cp /tmp/u.err \$UCT_EXPORT/
EOF
# strace and the libraries it links that the guest lacks (it has the
# loader and libc), each file itself, not the symbolic link to it
strace_libs=
for l in $(ldd /usr/bin/strace | grep -o '/[^ ]*'); do
	case ${l##*/} in ld-linux*|libc.so*) continue ;; esac
	strace_libs="$strace_libs --add $(readlink -f "$l"):$l"
done
# shellcheck disable=SC2086 # one word per --add
if ! timeout "$BOOT_SECS" "$UCT_ROOT/guest/run" -q --timeout "$BOOT_SECS" --console "$tmp/console" --export "$tmp/export" \
	--add /usr/bin/strace:/usr/bin/strace $strace_libs \
	-f "$tmp/guest.sh" > "$tmp/run.out" 2>&1 || ! grep -aq '^UNIT-EXIT' "$tmp/console"; then
	nok "the guest runs ucounttop as the unit would"
	tail -n 30 "$tmp/console" | diag
	finish
fi
ok "the guest runs ucounttop as the unit would: $user, capabilities $caps, $args"
expect "... SIGTERM ends it with status 0" "$(grep -a '^UNIT-EXIT' "$tmp/console" | tr -d '\r')" "UNIT-EXIT 0"
expect "... each scrape has the counters and a tenant's name from its own passwd file" \
	"$(for s in scrape1 scrape2; do grep -c '^ucounttop_nproc_processes{' "$tmp/export/$s" > /dev/null && grep -c 'user="n1-app"' "$tmp/export/$s"; done | tr '\n' ' ')" \
	"1 1 "

# every call from ucounttop's execve() on: strace -f's "PID name(" lines
awk '!go && /execve\("\/uct\/bin\/ucounttop"/ { go = 1 } go' "$tmp/export/strace.log" |
	sed -n 's/^[0-9]* *\([a-z0-9_]*\)(.*/\1/p' | sort -u > "$tmp/calls"
# the filter's groups, expanded as systemd does
expand() {
	local w
	for w in "$@"; do
		case $w in
		# its members, indented under the group's name: calls and groups
		@*) expand $(systemd-analyze syscall-filter "$w" | sed -n 's/^ \+\([a-z0-9_@-]*\)$/\1/p') ;;
		*) echo "$w" ;;
		esac
	done
}
expand $(sed -n 's/^SystemCallFilter=//p' "$unit") | sort -u > "$tmp/allowed"
comm -23 "$tmp/calls" "$tmp/allowed" > "$tmp/refused"
expect "every system call it made ($(wc -l < "$tmp/calls")) is in the unit's SystemCallFilter ($(wc -l < "$tmp/allowed"))" \
	"$(tr '\n' ' ' < "$tmp/refused")" ""
finish
