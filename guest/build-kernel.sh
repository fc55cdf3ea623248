#!/bin/bash
# Extract linux-source-$KTREE, apply patches/$KTREE in series order
# (guest/prepare-tree.sh), configure from guest/kernel.config on top of
# allnoconfig and build bzImage with ccache. KTREE (guest/lib.sh) picks
# the tree, mainline by default. Each step is redone only when its inputs
# changed (content-keyed stamps).
#
# --debug: the debug kernel instead. Same patched tree (step 1 is shared),
# guest/kernel.config + guest/kernel-debug.config, built in its own
# directory ($KOUT_DEBUG), bzImage only: the debug boot loads no module.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

DEBUG_FRAGMENT=()
TARGETS=(bzImage modules)
LABEL=kernel-$KTREE
DEBUG=0
LOGSUFFIX=
case "${1:-}" in
'') ;;
--debug)
	DEBUG_FRAGMENT=("$UCT_ROOT/guest/kernel-debug.config")
	TARGETS=(bzImage)
	KOUT=$KOUT_DEBUG
	BZIMAGE=$BZIMAGE_DEBUG
	LABEL=kdebug-$KTREE
	DEBUG=1
	LOGSUFFIX=-debug
	;;
*) die "usage: guest/build-kernel.sh [--debug]" ;;
esac

# the tarball first: the keys below are of it
ensure_tarball
# the tree's guest fragments (guest_fragments), the debug one read last
mapfile -t FRAGMENTS < <(guest_fragments)
FRAGMENTS+=("${DEBUG_FRAGMENT[@]}")

TREE_KEY=$(tree_key)
CONFIG_KEY=$(config_key "${FRAGMENTS[@]}")

# up_to_date: this exact tree and configuration were built before
up_to_date() {
	[ "$(cat "$KSRC/.uct-tree" 2>/dev/null)" = "$TREE_KEY" ] &&
		[ "$(cat "$KOUT/.uct-built" 2>/dev/null)" = "$CONFIG_KEY" ] && [ -f "$BZIMAGE" ] &&
		{ [ "$DEBUG" = 1 ] || [ -f "$KOUT/Module.symvers" ]; }
}
# Nothing to do needs no lock: a no-change run does not wait for a build
# of another tree (or another checkout) to finish.
if up_to_date; then
	stage "$LABEL" "up to date: $BZIMAGE"
	exit 0
fi
# Only one kernel build at a time on this machine: others wait here.
exec 9> "$CACHE_DIR/kernel.lock"
flock 9

# 1. Source tree: extracted and patched (guest/prepare-tree.sh).
"$UCT_ROOT/guest/prepare-tree.sh"

# 2. Configuration, checked: an option a fragment asks for but Kconfig
# dropped (missing dependency) is an error, not a silently smaller kernel.
# Fragments are concatenated, later ones overriding earlier ones; for each
# symbol its last line is what must hold: "CONFIG_X=v" exactly, or
# "# CONFIG_X is not set" as absent or not set.
mkdir -p "$KOUT"
if [ "$(cat "$KOUT/.uct-config" 2>/dev/null)" != "$CONFIG_KEY" ]; then
	names=$(for f in "${FRAGMENTS[@]}"; do echo "guest/${f##*/}"; done | paste -sd+ | sed 's/+/ + /g')
	stage "$LABEL" "configuring: allnoconfig + $names"
	cat "${FRAGMENTS[@]}" > "$KOUT/.uct-fragment"
	make -s -C "$KSRC" O="$KOUT" KCONFIG_ALLCONFIG="$KOUT/.uct-fragment" \
		allnoconfig > "$LOGDIR/config$LOGSUFFIX.log" 2>&1 || {
		cat "$LOGDIR/config$LOGSUFFIX.log" >&2; die "kernel configuration failed"; }
	missing=$(sed -n -e 's/^\(CONFIG_[A-Za-z0-9_]*\)=.*/\1 &/p' \
			-e 's/^# \(CONFIG_[A-Za-z0-9_]*\) is not set$/\1 &/p' "$KOUT/.uct-fragment" |
		awk '{ last[$1] = $0; if (!($1 in seen)) { seen[$1] = 1; order[++n] = $1 } }
			END { for (i = 1; i <= n; i++) print last[order[i]] }' |
		while read -r sym line; do
			case "$line" in
			'#'*) ! grep -q "^$sym=" "$KOUT/.config" ||
				echo "  $line (but: $(grep "^$sym=" "$KOUT/.config"))" ;;
			*) grep -qxF "$line" "$KOUT/.config" || echo "  $line" ;;
			esac
		done)
	[ -z "$missing" ] || die "options of $names not as asked in the final .config (unmet dependencies?):
$missing"
	echo "$CONFIG_KEY" > "$KOUT/.uct-config"
	rm -f "$KOUT/.uct-built"
fi

# 3. Build. Skipped outright when this exact tree+config was built before.
if up_to_date; then
	stage "$LABEL" "up to date: $BZIMAGE"
	exit 0
fi
export CCACHE_DIR=$CACHE_DIR/ccache CCACHE_BASEDIR=$CACHE_DIR CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}
export KBUILD_BUILD_TIMESTAMP='2023-01-01' KBUILD_BUILD_USER=ucounttop KBUILD_BUILD_HOST=guest
if [ "$DEBUG" = 0 ]; then
	what="bzImage (+ Module.symvers for test modules)" cold="~18 min on two cores"
else
	what="the debug bzImage" cold="36 CPU-minutes of compiling"
fi
log=$LOGDIR/kernel$LOGSUFFIX-build.log
stage "$LABEL" "building $what with $JOBS jobs (cold: $cold; log: $log)"
t0=$(date +%s)
# not the caller's MAKEFLAGS: `make -s test` would make the build silent,
# and with_log's progress counts the "  CC" lines of its log
with_log "$log" "$LABEL" \
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	make -C "$KSRC" O="$KOUT" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc" "${TARGETS[@]}"
echo "$CONFIG_KEY" > "$KOUT/.uct-built"
stage "$LABEL" "built $BZIMAGE in $(( $(date +%s) - t0 )) s ($(ccache -s 2>/dev/null | grep -m1 -i 'hits' | tr -s ' ' || true))"
