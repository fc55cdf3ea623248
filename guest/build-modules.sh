#!/bin/bash
# Build the test-only out-of-tree modules (guest/fault) against the
# patched tree. Sources are copied out first: kbuild writes its outputs
# next to them, and the repository holds no build outputs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ -f "$KOUT/Module.symvers" ] || die "no built kernel at $KOUT (run 'make kernel' first)"
build=$TOUT/modules-build/uct_fault
mkdir -p "$build" "$TOUT/modules"
# Copy the sources, with fresh mtimes, when they differ from those of the
# last build (recorded by hash): an unchanged module is not rebuilt, a
# changed one always is. (cp -p kept the source's mtime, which can be older
# than the object built from the previous copy: a stale module.)
src_sum=$(cat "$UCT_ROOT"/guest/fault/uct_fault.c "$UCT_ROOT"/guest/fault/Kbuild | hash_stdin)
if [ "$(cat "$build/.sources.sha256" 2>/dev/null)" != "$src_sum" ]; then
	cp "$UCT_ROOT"/guest/fault/uct_fault.c "$UCT_ROOT"/guest/fault/Kbuild "$build/"
	echo "$src_sum" > "$build/.sources.sha256"
fi
# An external module is not relinked when the kernel changes (kbuild makes
# vmlinux a prerequisite of in-tree modules only), but its BTF is split
# against vmlinux's: built against another vmlinux it fails to load
# ("failed to validate module BTF"). Relink it when the kernel is newer.
if [ "$KOUT/vmlinux" -nt "$build/uct_fault.ko" ]; then
	rm -f "$build/uct_fault.ko"
fi
make -C "$KSRC" O="$KOUT" M="$build" CC="ccache gcc" modules \
	> "$LOGDIR/modules.log" 2>&1 || {
	tail -n 30 "$LOGDIR/modules.log" >&2
	die "building guest/fault/uct_fault.ko failed (log: $LOGDIR/modules.log)"
}
cp "$build/uct_fault.ko" "$TOUT/modules/"
stage modules "uct_fault.ko for $KTREE"
