#!/bin/bash
# Build the kselftest sweep: every collection of the tree's
# tools/testing/selftests/Makefile (TARGETS) that guest/sweep-excluded.txt
# does not leave out (a COLLECTION:TEST line there leaves out one test),
# static (the guest has no libc), installed as kselftest installs them
# (run_kselftest.sh's layout: a directory per collection, its settings
# file, kselftest-list.txt) into $KDIR/sweep/install, for `ucounttop
# check --kselftest` to run in the guest (tests/host/kselftest-sweep.sh,
# make sweep). A collection static linking breaks is built dynamically
# (dynamic.txt), and the libraries its programs load go into .libs for
# the guest.
#
# Built against the tree's own UAPI headers (headers_install into
# $KDIR/sweep/headers). A collection that does not build is left out and
# listed in $KDIR/sweep/install/not-built.txt with its first error.
# Cached: rebuilt only when the tree, this script or the exclusions
# change. Prints the install directory.
#
#   guest/build-sweep.sh [COLLECTION...]   only those (unless the whole
#                                          sweep is built already)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$KSRC/.uct-tree" ] || die "no patched tree at $KSRC (run 'KTREE=$KTREE make kernel' first)"
SELF=$KSRC/tools/testing/selftests
EXCLUDED=$UCT_ROOT/guest/sweep-excluded.txt
SWEEP=$KDIR/sweep
DEST=$SWEEP/install
key=$(cat "$KSRC/.uct-tree" "$0" "$EXCLUDED" | sha256sum | cut -c1-16)
if [ -f "$DEST/.key" ] && [ "$(cat "$DEST/.key")" = "$key" ]; then
	echo "$DEST"
	exit 0
fi
# COLLECTION... (CI's set, say): with no whole sweep built, only those,
# into an install of their own
only=${*:-}
if [ -n "$only" ]; then
	DEST=$SWEEP/install-some
	key=$(echo "$key $only" | sha256sum | cut -c1-16)
	if [ -f "$DEST/.key" ] && [ "$(cat "$DEST/.key")" = "$key" ]; then
		echo "$DEST"
		exit 0
	fi
fi

exec 9> "$SWEEP.lock"
flock 9
rm -rf "$DEST" "$SWEEP/stage"
mkdir -p "$DEST" "$SWEEP/build" "$SWEEP/stage"
stage sweep "UAPI headers of $KTREE" >&2
# (O=: the source tree stays clean for the kernel's own O= builds)
make -s -C "$KSRC" O="$SWEEP/headers-build" ARCH=x86 INSTALL_HDR_PATH="$SWEEP/headers" headers_install \
	> "$LOGDIR/sweep-headers.log" 2>&1 ||
	{ tail -n 20 "$LOGDIR/sweep-headers.log" >&2; die "headers_install failed"; }

# install_collection TARGET STAGE LOG LDFLAGS: kselftest's install of one
# collection into STAGE; true when it built and lists a test
install_collection() {
	local kind=dynamic

	[ -z "$4" ] || kind=static
	rm -rf "$2"
	nice make -C "$SELF" TARGETS="$1" BUILD="$SWEEP/build/$kind" \
		KHDR_INCLUDES="-isystem $SWEEP/headers/include" \
		CC="ccache gcc" LDFLAGS="$4" INSTALL_PATH="$2" -j"$JOBS" install \
		> "$3" 2>&1 && [ -s "$2/kselftest-list.txt" ]
}

# the collections, in the Makefile's order
targets=$(sed -n 's/^TARGETS += //p' "$SELF/Makefile")
excluded=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$EXCLUDED" | awk '{ print $1 }')
: > "$DEST/kselftest-list.txt"
: > "$DEST/not-built.txt"
: > "$DEST/dynamic.txt"
built=0
for t in $targets; do
	if grep -qxF "$t" <<< "$excluded"; then
		continue
	fi
	if [ -n "$only" ] && ! grep -qxF "$t" <(printf '%s\n' $only); then
		continue
	fi
	log=$LOGDIR/sweep-${t//\//_}.log
	st=$SWEEP/stage/${t//\//_}
	# kselftest's own install: builds, then copies the tests, their
	# settings and helpers; lists what run_kselftest.sh would run.
	# Static first; a collection static linking breaks (-static-pie
	# programs, a libc function a test defines itself) is built
	# dynamically, and the guest gets the libraries (below).
	how=
	if install_collection "$t" "$st" "$log" -static; then
		how=static
	elif install_collection "$t" "$st" "$log.dynamic" ""; then
		how=dynamic
		echo "$t" >> "$DEST/dynamic.txt"
	fi
	if [ -n "$how" ]; then
		mkdir -p "$DEST/$(dirname "$t")"
		cp -a "$st/$t" "$DEST/$(dirname "$t")/"
		# less the single tests the exclusions name (COLLECTION:TEST)
		grep "^$t:" <<< "$excluded" > "$SWEEP/excluded-tests" || true
		grep -vxF -f "$SWEEP/excluded-tests" "$st/kselftest-list.txt" \
			>> "$DEST/kselftest-list.txt" || true
		# kselftest's runner, the same in every stage
		[ -e "$DEST/run_kselftest.sh" ] || cp -a "$st/run_kselftest.sh" "$st/kselftest" "$DEST/"
		built=$((built + 1))
		stage sweep "$t: $(wc -l < "$st/kselftest-list.txt") tests ($how)" >&2
	else
		why=$(grep -m1 -E 'error:|Error [0-9]|No rule to make|undefined reference|cannot find' "$log" |
			sed 's|'"$KSRC"'/||g' | cut -c1-160 || true)
		printf '%s\t%s\n' "$t" "${why:-built, but lists no test for run_kselftest.sh}" >> "$DEST/not-built.txt"
		stage sweep "$t: not built (${why:-no test listed})" >&2
	fi
	rm -rf "$st"
done
[ "$built" -gt 0 ] || die "no kselftest collection built (logs: $LOGDIR/sweep-*.log)"
# the shared libraries the dynamic programs load, with the loader, where
# the guest's sweep.sh links them (/lib/x86_64-linux-gnu, /lib64)
mkdir -p "$DEST/.libs"
find "$DEST" -type f -perm -u+x -print0 | xargs -0 file -N | { grep 'dynamically linked' || true; } |
	cut -d: -f1 | xargs -r ldd 2> /dev/null |
	awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*[^:]$/ { print $1 }' | sort -u |
	while read -r lib; do cp -L "$lib" "$DEST/.libs/"; done
echo "$key" > "$DEST/.key"
echo "$DEST"
