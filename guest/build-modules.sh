#!/bin/bash
# Build the test-only out-of-tree modules (guest/fault) against the
# patched tree. Sources are copied out first: kbuild writes its outputs
# next to them, and the repository holds no build outputs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$KOUT/Module.symvers" ] || die "no built kernel at $KOUT (run 'make kernel' first)"
build=$CACHE_DIR/out/modules-build/uct_fault
mkdir -p "$build" "$CACHE_DIR/out/modules"
# cp -p keeps mtimes, so an unchanged module is not rebuilt.
cp -p "$UCT_ROOT"/guest/fault/uct_fault.c "$UCT_ROOT"/guest/fault/Kbuild "$build/"
make -C "$KSRC" O="$KOUT" M="$build" CC="ccache gcc" modules \
	> "$LOGDIR/modules.log" 2>&1 || {
	tail -n 30 "$LOGDIR/modules.log" >&2
	die "building guest/fault/uct_fault.ko failed (log: $LOGDIR/modules.log)"
}
cp "$build/uct_fault.ko" "$CACHE_DIR/out/modules/"
stage modules "uct_fault.ko"
