#!/bin/bash
# apt-newer.sh apt-get|apt-cache ARGS...: run apt on a private state that
# sees Debian's newer suites (trixie-backports and sid), where Debian
# packages the mainline kernel trees and images newer than Debian 12
# installs. The machine's own apt sources and lists are never touched:
# the private sources list reuses the mirror those sources name, suite
# changed, and lives with its lists in $CACHE_DIR/apt. Its lists are
# fetched when missing or older than a day (APT_NEWER_REFRESH=1: now).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

case "${1:-}" in
apt-get | apt-cache) ;;
*) die "usage: guest/apt-newer.sh apt-get|apt-cache ARGS..." ;;
esac
SUITES=(trixie-backports sid)
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg
state=$CACHE_DIR/apt
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/none.d"

# The mirror: the first Debian archive (not -security, not -ports) the
# machine's sources name, in deb822 (.sources) or one-line form.
mirror() {
	{
		cat /etc/apt/sources.list.d/*.sources 2> /dev/null |
			awk '/^URIs:/ { for (i = 2; i <= NF; i++) print $i }'
		cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2> /dev/null |
			awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { print $i; break } }'
	} | grep -E '/debian/?$' | head -n 1
}
uri=$(mirror) || true
[ -n "$uri" ] || die "no Debian mirror in /etc/apt/sources.list{,.d/*}: a URI ending in /debian is what the newer suites are read from"
[ -r "$KEYRING" ] || die "$KEYRING missing (install debian-archive-keyring)"
list=$state/sources.list
for s in "${SUITES[@]}"; do echo "deb [signed-by=$KEYRING] $uri $s main"; done > "$list.new"
cmp -s "$list.new" "$list" 2> /dev/null && rm "$list.new" || { mv "$list.new" "$list"; rm -f "$state/updated"; }

# none.d: an empty directory for the .d parts apt would read from /etc
opts=(-o "Dir::Etc::sourcelist=$list" -o "Dir::Etc::sourceparts=$state/none.d" -o "Dir::State::Lists=$state/lists"
      -o "Dir::Cache=$state/cache" -o Dir::Etc::preferences=/dev/null -o "Dir::Etc::preferencesparts=$state/none.d")
# as root, apt fetches as _apt, which cannot write to a 0700 cache
[ "$(id -u)" = 0 ] && opts+=(-o APT::Sandbox::User=root)

if [ "${APT_NEWER_REFRESH:-0}" = 1 ] || [ -z "$(find "$state/updated" -mmin -1440 2> /dev/null)" ]; then
	exec 7> "$state/lock"
	flock 7
	if [ "${APT_NEWER_REFRESH:-0}" = 1 ] || [ -z "$(find "$state/updated" -mmin -1440 2> /dev/null)" ]; then
		echo "apt-newer: reading ${SUITES[*]} from $uri (private lists in $state)" >&2
		apt-get -q "${opts[@]}" update > "$state/update.log" 2>&1 || {
			cat "$state/update.log" >&2; die "apt-get update of ${SUITES[*]} from $uri failed"; }
		: > "$state/updated"
	fi
	exec 7>&-
fi
cmd=$1
shift
exec "$cmd" "${opts[@]}" "$@"
