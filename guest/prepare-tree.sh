#!/bin/bash
# Extract linux-source-$KTREE and apply patches/$KTREE in series order,
# into $KSRC (guest/lib.sh). Redone only when the tarball or the series
# changed (content-keyed stamp $KSRC/.uct-tree). What builds a kernel
# (guest/build-kernel.sh) and what only reads the tree (the checkpatch
# suite: its checkpatch.pl) both start here, so neither depends on the
# other having run.
#
# A pristine copy of the tarball is extracted once; the files the series
# touches are patched in a scratch directory, and only those whose content
# differs from the tree's are written. Everything else keeps its mtime, so
# changing one patch rebuilds what that patch changes, not everything that
# includes a header some patch touches.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

LABEL=tree-$KTREE
# a tree Debian 12 does not install is downloaded into the cache
ensure_tarball

TREE_KEY=$(tree_key)
[ "$(cat "$KSRC/.uct-tree" 2>/dev/null)" = "$TREE_KEY" ] && exit 0
# One writer per tree: a build of this tree waits here too (it holds
# kernel.lock, never this one, while it compiles).
mkdir -p "$KDIR"
exec 8> "$KDIR/tree.lock"
flock 8
[ "$(cat "$KSRC/.uct-tree" 2>/dev/null)" = "$TREE_KEY" ] && exit 0

PRISTINE=$KDIR/pristine
PRISTINE_KEY=$(stat -c '%n %s %Y' "$KSRC_TARBALL" | hash_stdin)
if [ "$(cat "$PRISTINE/.uct-pristine" 2>/dev/null)" != "$PRISTINE_KEY" ]; then
	stage "$LABEL" "extracting $(basename "$KSRC_TARBALL") into $PRISTINE"
	rm -rf "$PRISTINE" "$KSRC"
	mkdir -p "$PRISTINE"
	tar -xJf "$KSRC_TARBALL" -C "$PRISTINE" --strip-components=1
	echo "$PRISTINE_KEY" > "$PRISTINE/.uct-pristine"
fi
if [ ! -f "$KSRC/.uct-touched" ]; then
	stage "$LABEL" "copying the pristine tree to $KSRC"
	rm -rf "$KSRC"
	cp -a "$PRISTINE" "$KSRC"
	rm -f "$KSRC/.uct-pristine"
	: > "$KSRC/.uct-touched"
fi
scratch=$KDIR/patching
rm -rf "$scratch"
mkdir -p "$scratch"
# the new series applied to the files it touches, as they are in the tarball
mapfile -t patches < <(series_patches)
touched=$(printf '%s\n' "${patches[@]}" | xargs -r sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' | sort -u)
stage "$LABEL" "applying the ${#patches[@]} patches of patches/$KTREE/series"
if [ "${#patches[@]}" -gt 0 ] && ! bad=$(patch_copy "$PRISTINE" "$scratch" "${patches[@]}"); then
	cat "$scratch/.patch.log" >&2
	die "patch $(basename "$bad") does not apply to $(basename "$KSRC_TARBALL") (tree left at $scratch)"
fi
# write what changed: files of the old series and the new one
changed=0
for f in $(printf '%s\n' $touched $(cat "$KSRC/.uct-touched") | sort -u); do
	if [ -e "$scratch/$f" ]; then
		src=$scratch/$f
	elif [ -e "$PRISTINE/$f" ]; then
		src=$PRISTINE/$f
	else
		src=
	fi
	if [ -z "$src" ]; then
		[ -e "$KSRC/$f" ] && { rm -f "$KSRC/$f"; changed=$((changed + 1)); }
	elif ! cmp -s "$src" "$KSRC/$f"; then
		install -D -m "$(stat -c %a "$src")" "$src" "$KSRC/$f"
		changed=$((changed + 1))
	fi
done
printf '%s\n' $touched > "$KSRC/.uct-touched"
rm -rf "$scratch"
stage "$LABEL" "series applied: $changed files changed in $KSRC"
echo "$TREE_KEY" > "$KSRC/.uct-tree"
