#!/bin/bash
# fetch-source.sh: the tarball of a tree Debian 12 does not install, into
# $KSRC_TARBALL (guest/lib.sh): linux-source-$KTREE from Debian's newer
# suites (guest/apt-newer.sh), downloaded and unpacked, never installed.
# Once: a tarball already there is kept (make distclean, or deleting it,
# fetches again). The version it came from is in $KSRC_TARBALL.version.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=linux-source-$KTREE
[ -f "$KSRC_TARBALL" ] && exit 0
case "$KSRC_TARBALL" in
"$CACHE_DIR"/*) ;;
*) die "$KSRC_TARBALL not found (install $pkg, or run 'make deps')" ;;
esac
apt=$UCT_ROOT/guest/apt-newer.sh
ver=$("$apt" apt-cache policy "$pkg" 2> /dev/null | awk '/Candidate:/ { print $2 }')
if [ -z "$ver" ] || [ "$ver" = '(none)' ]; then
	newest=$("$apt" apt-cache search --names-only '^linux-source-[0-9.]+$' | awk '{ print $1 }' | sort -V | tail -n 1)
	die "Debian's trixie-backports and sid no longer have $pkg, the tree patches/$KTREE is written against${newest:+ (newest there: $newest)}: port patches/$KTREE to a tree Debian packages"
fi
exec 8> "$CACHE_DIR/src.lock"
flock 8
[ -f "$KSRC_TARBALL" ] && exit 0
dl=$(mktemp -d "$CACHE_DIR/src-download.XXXXXX")
trap 'rm -rf "$dl"' EXIT
stage "src-$KTREE" "downloading $pkg $ver (~170 MB; unpacked into $CACHE_DIR/src, not installed)"
(cd "$dl" && "$apt" apt-get download -q "$pkg=$ver" > "$dl/log" 2>&1) || {
	cat "$dl/log" >&2; die "apt-get download $pkg=$ver failed"; }
mkdir -p "$(dirname "$KSRC_TARBALL")"
dpkg-deb --fsys-tarfile "$dl"/"$pkg"_*.deb |
	tar -xO "./usr/src/$pkg.tar.xz" > "$dl/tarball" ||
	die "$pkg $ver has no usr/src/$pkg.tar.xz"
echo "$pkg $ver" > "$KSRC_TARBALL.version"
mv "$dl/tarball" "$KSRC_TARBALL"
stage "src-$KTREE" "$KSRC_TARBALL ($pkg $ver)"
