#!/bin/bash
# Build the kselftest targets the guest runs, from the patched tree, as
# static binaries (the guest has busybox but no libc).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

TARGETS=${SELFTEST_TARGETS:-rlimits}
[ -f "$KSRC/.uct-tree" ] || die "no patched tree at $KSRC (run 'make kernel' first)"
for t in $TARGETS; do
	out=$UCT_OUT/selftests/$t
	mkdir -p "$out"
	make -s -C "$KSRC/tools/testing/selftests/$t" OUTPUT="$out" \
		CC="ccache gcc" LDFLAGS=-static > "$LOGDIR/selftests-$t.log" 2>&1 || {
		tail -n 30 "$LOGDIR/selftests-$t.log" >&2
		die "building kselftest target '$t' failed (log: $LOGDIR/selftests-$t.log)"
	}
	stage selftests "$t: $(cd "$out" && find . -type f -perm -u+x | sed 's|^\./||' | tr '\n' ' ')"
done
