#!/bin/bash
# Fetch Debian's stock 6.1 kernel (the linux-image-amd64 dependency) into
# the cache, never installing it on the host: `apt-get download` +
# `dpkg-deb -x`. Leaves $CACHE_DIR/stock/<version>/vmlinuz and, in
# early-modules/, the virtio modules our guest needs (virtio-serial
# carries the exit status; Debian builds it as a module) with an `order`
# file that guest/init loads them by. Prints the version directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkg=$(apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-6/ {print $2; exit}')
[ -n "$pkg" ] || die "apt-cache knows no linux-image-amd64 dependency (run 'apt-get update')"
ver=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
dir=$CACHE_DIR/stock/$pkg-$ver
if [ ! -f "$dir/early-modules/order" ]; then
	stage stock "downloading $pkg $ver (not installed on the host)"
	rm -rf "$dir"
	mkdir -p "$dir/deb" "$dir/early-modules"
	(cd "$dir/deb" && apt-get download "$pkg=$ver" > "$LOGDIR/stock-download.log" 2>&1) || {
		cat "$LOGDIR/stock-download.log" >&2; die "apt-get download $pkg failed"; }
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
	rm -rf "$dir/deb"
	cp "$dir"/root/boot/vmlinuz-* "$dir/vmlinuz"
	moddir=$(echo "$dir"/root/lib/modules/*/kernel)

	# Dependency closure in load order, from each module's own modinfo
	# (modules.dep is made by depmod at install time, not shipped).
	declare -A seen=()
	add() {
		local name=$1 path dep
		[ -n "${seen[$name]:-}" ] && return
		seen[$name]=1
		path=$(find "$moddir" -name "$name.ko" | head -n 1)
		[ -n "$path" ] || die "module $name not in $pkg"
		for dep in $(modinfo -F depends "$path" | tr ',' ' '); do
			add "$dep"
		done
		cp "$path" "$dir/early-modules/"
		echo "$name.ko" >> "$dir/early-modules/order"
	}
	add virtio_pci
	add virtio_console
fi
echo "$dir"
