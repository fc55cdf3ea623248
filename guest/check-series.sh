#!/bin/bash
# make check-series: every prefix of patches/$KTREE/series builds on its
# own (make check-series runs it for every tree).
#
# In a tree of its own (tree-$KTREE/series/linux, built in series/kbuild,
# laid out like linux/ and kbuild/ so that ccache shares their objects),
# apply the patches one at a time and after each one:
#   - configure allnoconfig + guest/kernel.config + the tree's own
#     guest/kernel-KTREE.config (options a later patch adds are simply
#     not there yet) and build bzImage and modules, incrementally;
#   - rebuild with W=1 and sparse (C=1) the kernel C files the patch
#     touches, before and after it, and fail on a warning the patch adds
#     (a warning already in the file, e.g. kernel-doc in user_namespace.c,
#     is not the patch's);
#   - build the kselftest programs of a patch that touches a selftest.
# Prints one TAP result per patch; exits 1 if any prefix fails. Slow (a
# full kernel build per patch that changes a widely included header), so
# not part of `make test`.
set -uo pipefail
. "$(dirname "$0")/lib.sh"

S=$KDIR/series
T=$S/linux
O=$S/kbuild
LOG=$LOGDIR/check-series.log
mkdir -p "$S"
: > "$LOG"
exec 9> "$CACHE_DIR/kernel.lock"
flock 9

ensure_tarball
command -v sparse > /dev/null || die "sparse is not installed (make deps installs it)"
# the fragments the guest kernel is built from (guest/build-kernel.sh), as
# the one file KCONFIG_ALLCONFIG takes
FRAGMENT=$S/guest.config
guest_fragments | xargs cat > "$FRAGMENT"
stage series "extracting $(basename "$KSRC_TARBALL") into $T"
# The build directory goes too: the extracted files are older than objects
# a previous run built from later prefixes, which make would keep
rm -rf "$T" "$O"
mkdir -p "$T" "$O"
tar -xJf "$KSRC_TARBALL" -C "$T" --strip-components=1 || die "cannot extract $KSRC_TARBALL"
export CCACHE_DIR=$CACHE_DIR/ccache CCACHE_BASEDIR=$CACHE_DIR CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-3G}
export KBUILD_BUILD_TIMESTAMP='2023-01-01' KBUILD_BUILD_USER=ucounttop KBUILD_BUILD_HOST=guest
KMAKE=(make -C "$T" O="$O" -j"$JOBS" CC="ccache gcc" HOSTCC="ccache gcc")

# w1_warnings FILES OBJECTS: the W=1 and sparse warnings in FILES when
# OBJECTS are rebuilt, without line numbers, sorted (to compare before and
# after a patch)
w1_warnings() {
	local objs
	# shellcheck disable=SC2086
	objs=$(kbuild_objs "$T" $2)
	[ -n "$objs" ] || return 0
	# (a file the patch creates has no "before")
	echo "$1" | grep -E '\.c$' | sed "s|^|$T/|" | while read -r f; do [ -e "$f" ] && echo "$f"; done |
		xargs -r touch
	# shellcheck disable=SC2086
	"${KMAKE[@]}" W=1 C=1 $objs 2>&1 | tee -a "$LOG" | grep -E '(warning|error):' |
		grep -F "$(echo "$1" | grep -E '\.[ch]$')" |
		sed -E 's|^.*/linux/||; s|:[0-9]+(:[0-9]+)?:|:|' | sort -u
}

# configured before the first patch too, for its W=1 baseline
make -s -C "$T" O="$O" KCONFIG_ALLCONFIG="$FRAGMENT" allnoconfig \
	>> "$LOG" 2>&1 || die "configuring the pristine tree failed (log: $LOG)"

n=0 failed=0
while read -r p; do
	name=$KTREE/${p#"$PATCHES"/}
	n=$((n + 1))
	why=
	stage series "$n: $name"
	files=$(sed -n 's|^+++ b/||p' "$p")
	kfiles=$(echo "$files" | grep -E '^(kernel|fs|ipc|mm|lib|include)/.*\.c$' | sed 's/\.c$/.o/' | tr '\n' ' ')
	w1_before=$([ -n "$kfiles" ] && w1_warnings "$files" "$kfiles")
	if ! patch -d "$T" -p1 -F0 -N --batch --no-backup-if-mismatch -s -i "$p" >> "$LOG" 2>&1; then
		echo "not ok $n $name: does not apply"
		failed=1
		break
	fi
	make -s -C "$T" O="$O" KCONFIG_ALLCONFIG="$FRAGMENT" allnoconfig \
		>> "$LOG" 2>&1 || why="configuration failed"
	if [ -z "$why" ]; then
		"${KMAKE[@]}" bzImage modules >> "$LOG" 2>&1 || why="bzImage/modules do not build"
	fi
	if [ -z "$why" ] && [ -n "$kfiles" ]; then
		# shellcheck disable=SC2086
		kfiles=$(kbuild_objs "$T" $kfiles | tr '\n' ' ')
		added=$(comm -13 <(echo "$w1_before") <(w1_warnings "$files" "$kfiles"))
		[ -z "$added" ] || why="W=1 warnings added: $(echo "$added" | head -n 3 | tr '\n' ' ')"
	fi
	if [ -z "$why" ]; then
		for t in $(echo "$files" | sed -n 's|^tools/testing/selftests/\([a-z_]*\)/.*|\1|p' | sort -u); do
			if [ "$t" = bpf ]; then
				BPF_KSRC=$T BPF_KOUT=$O TOUT=$S/out "$UCT_ROOT/guest/build-bpf-selftests.sh" \
					>> "$LOG" 2>&1 || why="the bpf selftest does not build"
			else
				mkdir -p "$S/out/selftests/$t"
				make -s -C "$T/tools/testing/selftests/$t" OUTPUT="$S/out/selftests/$t" \
					CC="ccache gcc" >> "$LOG" 2>&1 || why="selftests/$t do not build"
			fi
		done
	fi
	if [ -z "$why" ]; then
		echo "ok $n $name${kfiles:+ (W=1, sparse: no new warning in $kfiles)}"
	else
		echo "not ok $n $name: $why (log: $LOG)"
		failed=1
	fi
done < <(series_patches)
echo "1..$n"
exit $failed
