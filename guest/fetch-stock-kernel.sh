#!/bin/bash
# fetch-stock-kernel.sh [FLAVOUR]: fetch one of the kernels Debian installs
# into the cache, never installing it on the host (`apt-get download` +
# `dpkg-deb -x`). FLAVOUR:
#   6.1      the linux-image-amd64 dependency (default)
#   6.12     the newest linux-image-6.12.*+deb12-amd64-unsigned
#   6.12-rt  the newest linux-image-6.12.*+deb12-rt-amd64-unsigned (PREEMPT_RT)
# Leaves in $CACHE_DIR/stock/<package>-<version>/: vmlinuz; btf, the
# kernel's raw BTF (for the host's relocation check); and in
# early-modules/ the virtio modules our guest needs where they are modules
# (virtio-serial carries the exit status), with an `order` file that
# guest/init loads them by. Prints the version directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-6.1}
case "$flavour" in
6.1)
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	      awk '/Depends: linux-image-6/ {print $2; exit}') ;;
6.12 | 6.12-rt)
	suffix=amd64-unsigned
	[ "$flavour" = 6.12-rt ] && suffix=rt-amd64-unsigned
	pkg=$(apt-cache search --names-only "^linux-image-6\\.12\\.[0-9]+\\+deb12-$suffix\$" |
	      awk '{print $1}' | sort -V | tail -n 1) ;;
*)
	die "unknown stock kernel flavour '$flavour' (6.1, 6.12 or 6.12-rt)" ;;
esac
[ -n "$pkg" ] || die "apt-cache knows no $flavour kernel package (run 'apt-get update')"
ver=$(apt-cache policy "$pkg" | awk '/Candidate:/ {print $2}')
dir=$CACHE_DIR/stock/$pkg-$ver
if [ ! -f "$dir/btf" ]; then
	stage stock "downloading $pkg $ver (not installed on the host)"
	rm -rf "$dir"
	mkdir -p "$dir/deb" "$dir/early-modules" "$LOGDIR"
	(cd "$dir/deb" && apt-get download "$pkg=$ver" > "$LOGDIR/stock-download.log" 2>&1) || {
		cat "$LOGDIR/stock-download.log" >&2; die "apt-get download $pkg failed"; }
	dpkg-deb -x "$dir"/deb/*.deb "$dir/root"
	rm -rf "$dir/deb"
	cp "$dir"/root/boot/vmlinuz-* "$dir/vmlinuz"
	kdir=$(echo "$dir"/root/lib/modules/*)
	: > "$dir/early-modules/order"

	# Dependency closure in load order, from each module's own modinfo
	# (modules.dep is made by depmod at install time, not shipped). A
	# module built in (modules.builtin) needs nothing.
	declare -A seen=()
	add() {
		local name=$1 path dep
		[ -n "${seen[$name]:-}" ] && return
		seen[$name]=1
		grep -q "/$name.ko\$" "$kdir/modules.builtin" && return
		path=$(find "$kdir/kernel" -name "$name.ko" -o -name "$name.ko.xz" | head -n 1)
		[ -n "$path" ] || die "module $name neither built in nor in $pkg"
		for dep in $(modinfo -F depends "$path" | tr ',' ' '); do
			add "$dep"
		done
		case "$path" in
		*.xz) xz -dc "$path" > "$dir/early-modules/$name.ko" ;;
		*) cp "$path" "$dir/early-modules/" ;;
		esac
		echo "$name.ko" >> "$dir/early-modules/order"
	}
	add virtio_pci
	add virtio_console

	# Its BTF, the .BTF section of the decompressed image.
	"$UCT_ROOT/guest/extract-btf.sh" "$dir/vmlinuz" "$dir/btf.tmp"
	rm -rf "$dir/root"
	mv "$dir/btf.tmp" "$dir/btf"
fi
echo "$dir"
