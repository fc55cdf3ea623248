# Shared helpers for the build and guest scripts. Sourced, not executed.
# shellcheck shell=bash

UCT_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)
: "${CACHE_DIR:=${XDG_CACHE_HOME:-$HOME/.cache}/ucounttop}"
: "${JOBS:=$(nproc)}"
# The kernel trees patches/ has a series for: mainline as Debian packages
# it (7.3, from its newer suites) and the LTS trees Debian 12 installs
# (6.1, 6.12), which carry the fixes as stable backports. KTREE picks one
# (default: mainline). Everything built from a tree is kept apart.
KTREES="6.1 6.12 7.3"
# the tree our kernel is: mainline, where the features go first
MAINLINE_TREE=7.3
: "${KTREE:=$MAINLINE_TREE}"
case " $KTREES " in
*" $KTREE "*) ;;
*) echo "error: KTREE='$KTREE': the trees are $KTREES" >&2; exit 2 ;;
esac
# Debian's linux-source-$KTREE: 6.x installed from the machine's sources
# (guest/deps.sh), 7.x, which only Debian's newer suites carry, downloaded
# into the cache (guest/fetch-source.sh)
case "$KTREE" in
6.*) KSRC_TARBALL=/usr/src/linux-source-$KTREE.tar.xz ;;
*) KSRC_TARBALL=$CACHE_DIR/src/linux-source-$KTREE.tar.xz ;;
esac
PATCHES=$UCT_ROOT/patches/$KTREE # the series for that tree (PATCHES/series)
KDIR=$CACHE_DIR/tree-$KTREE
KSRC=$KDIR/linux                 # extracted + patched tree
KOUT=$KDIR/kbuild                # O= build directory
BZIMAGE=$KOUT/arch/x86/boot/bzImage
# The debug kernel (guest/kernel-debug.config on top): same tree, own O=
KOUT_DEBUG=$KDIR/kbuild-debug
BZIMAGE_DEBUG=$KOUT_DEBUG/arch/x86/boot/bzImage
LOGDIR=$CACHE_DIR/logs/$KTREE
# The BTF ucounttop and its BPF objects are compiled against: the mainline
# guest kernel's, which has every type the series add, whatever KTREE is
# (CO-RE relocates them on any kernel).
TOOL_VMLINUX=$CACHE_DIR/tree-$MAINLINE_TREE/kbuild/vmlinux
# Userspace outputs, one directory per checkout: make decides by mtimes,
# so objects built from another checkout's sources must never be reused.
# The Makefile computes the same path from its $(CURDIR). What is built
# from a tree (kselftests, the test module, the initramfs that carries
# them) goes to TOUT, below it.
: "${UCT_OUT:=$CACHE_DIR/out/$(printf %s "$UCT_ROOT" | sha256sum | cut -c1-12)}"
: "${TOUT:=$UCT_OUT/tree-$KTREE}"
export CACHE_DIR KTREE JOBS UCT_OUT
mkdir -p "$CACHE_DIR" "$LOGDIR"

UCT_T0=${UCT_T0:-$(date +%s)}

# stage NAME MESSAGE: one progress line with the time since the script began.
stage() {
	local t=$(( $(date +%s) - UCT_T0 ))
	printf '[%02d:%02d] %-10s %s\n' $((t / 60)) $((t % 60)) "$1" "$2"
}

die() {
	echo "error: $*" >&2
	exit 1
}

# sha256 of stdin, hex only
hash_stdin() {
	sha256sum | cut -d' ' -f1
}

# The patches listed in patches/$KTREE/series, in order, as paths
# (comments and blank lines skipped). Fails when a listed patch is missing.
series_patches() {
	local series=$PATCHES/series p
	[ -f "$series" ] || return 0
	while read -r p _; do
		case "$p" in ''|'#'*) continue ;; esac
		[ -f "$PATCHES/$p" ] || die "patches/$KTREE/series lists '$p' but patches/$KTREE/$p does not exist"
		echo "$PATCHES/$p"
	done < "$series"
}

# ensure_tarball: KSRC_TARBALL, downloaded first for a tree Debian 12 does
# not install (guest/fetch-source.sh)
ensure_tarball() {
	[ -f "$KSRC_TARBALL" ] || "$UCT_ROOT/guest/fetch-source.sh"
}

# patch_copy PRISTINE DIR PATCH...: copy the files the PATCHes touch from
# PRISTINE into DIR (mode and mtime kept), then apply the PATCHes there in
# order, exactly (-F0). On a patch that does not apply, prints its path,
# leaves patch's output in DIR/.patch.log and returns 1.
patch_copy() {
	local pristine=$1 dir=$2 f p
	shift 2
	for f in $(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$@" | sort -u); do
		[ ! -e "$pristine/$f" ] ||
			install -D -p -m "$(stat -c %a "$pristine/$f")" "$pristine/$f" "$dir/$f"
	done
	for p; do
		patch -d "$dir" -p1 -F0 -N --batch --no-backup-if-mismatch -s -i "$p" \
			> "$dir/.patch.log" 2>&1 || { echo "$p"; return 1; }
	done
	rm -f "$dir/.patch.log"
}

# guest_fragments: the config fragments the tree's guest kernel is made of,
# in the order KCONFIG_ALLCONFIG reads them: guest/kernel.config, then
# what the tree needs beyond it (guest/kernel-KTREE.config) if anything
guest_fragments() {
	echo "$UCT_ROOT/guest/kernel.config"
	[ ! -f "$UCT_ROOT/guest/kernel-$KTREE.config" ] || echo "$UCT_ROOT/guest/kernel-$KTREE.config"
}

# kbuild_objs SRC OBJECTS: those kbuild builds in the tree at SRC (named in
# their directory's Makefile): a .c file #included by another, as the
# ucounts KUnit suite is by kernel/ucount.c, is compiled through that one
# and only through it
kbuild_objs() {
	local src=$1 o
	shift
	for o; do
		grep -qw "${o##*/}" "$src/${o%/*}/Makefile" 2> /dev/null && echo "$o"
	done
}

# tree_has_series NAME: whether patches/$KTREE/series applies the series
# in folder NAME (fixes, tracepoints, bpf-iter). The stable trees carry
# the fixes only.
tree_has_series() {
	grep -q "^$1/" "$PATCHES/series" 2> /dev/null
}

# Key of the pristine tree plus our series: changes when either does.
tree_key() {
	{
		stat -c '%n %s %Y' "$KSRC_TARBALL"
		series_patches | while read -r p; do
			echo "${p#"$PATCHES"/} $(sha256sum < "$p")"
		done
	} | hash_stdin
}

# config_key [FRAGMENT...]: key of the configured tree, the tree key plus
# the config fragments (default: guest/kernel.config alone).
config_key() {
	[ $# -gt 0 ] || set -- "$UCT_ROOT/guest/kernel.config"
	{
		tree_key
		for f; do sha256sum < "$f"; done
	} | hash_stdin
}

# with_log LOGFILE LABEL CMD...: run CMD with output to LOGFILE, printing a
# progress line every 30 s; on failure show the log's tail and its path.
with_log() {
	local log=$1 label=$2 pid rc n last
	shift 2
	: > "$log"
	"$@" >> "$log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		for _ in $(seq 30); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 1
		done
		kill -0 "$pid" 2>/dev/null || break
		n=$(grep -c '^  CC ' "$log" || true)
		last=$(tail -n 1 "$log" | cut -c1-60)
		stage "$label" "$n objects compiled, now: $last"
	done
	rc=0
	wait "$pid" || rc=$?
	if [ "$rc" -ne 0 ]; then
		echo "---- last 40 lines of $log ----" >&2
		tail -n 40 "$log" >&2
		echo "---- $label failed (exit $rc); full log: $log" >&2
	fi
	return "$rc"
}
