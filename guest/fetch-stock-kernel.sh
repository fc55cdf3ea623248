#!/bin/bash
# fetch-stock-kernel.sh [FLAVOUR]: fetch one of Debian's stock kernels into
# the cache, never installing it on the host (`apt-get download` +
# `dpkg-deb -x`). FLAVOUR:
#   6.1      the linux-image-amd64 dependency (default)
#   6.12     the newest linux-image-6.12.*+deb12-amd64-unsigned
#   6.12-rt  the newest linux-image-6.12.*+deb12-rt-amd64-unsigned (PREEMPT_RT)
#   7.x      the newest 7.x amd64 kernel of Debian's newer suites
#            (trixie-backports, sid: guest/apt-newer.sh), which split it:
#            linux-binary-unsigned-V (the image), linux-base-V
#            (modules.builtin), linux-modules-V (fetched only if a module
#            our guest needs is not built in)
#   7.x-rt   the same, PREEMPT_RT
# Leaves in $CACHE_DIR/stock/<package>-<version>/: vmlinuz; btf, the
# kernel's raw BTF (for the host's relocation check); and in
# early-modules/ the virtio modules our guest needs where they are modules
# (virtio-serial carries the exit status), with an `order` file that
# guest/init loads them by. Prints the version directory.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

flavour=${1:-6.1}
apt_get=(apt-get)
apt_cache=(apt-cache)
split=
case "$flavour" in
6.1)
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	      awk '/Depends: linux-image-6/ {print $2; exit}') ;;
6.12 | 6.12-rt)
	suffix=amd64-unsigned
	[ "$flavour" = 6.12-rt ] && suffix=rt-amd64-unsigned
	pkg=$(apt-cache search --names-only "^linux-image-6\\.12\\.[0-9]+\\+deb12-$suffix\$" |
	      awk '{print $1}' | sort -V | tail -n 1) ;;
7.x | 7.x-rt)
	apt_get=("$UCT_ROOT/guest/apt-newer.sh" apt-get)
	apt_cache=("$UCT_ROOT/guest/apt-newer.sh" apt-cache)
	suffix=amd64
	[ "$flavour" = 7.x-rt ] && suffix=rt-amd64
	pkg=$("${apt_cache[@]}" search --names-only \
		"^linux-binary-unsigned-7\\.[0-9]+\\.[0-9]+\\+deb[0-9]+-$suffix\$" |
	      awk '{print $1}' | sort -V | tail -n 1)
	split=${pkg#linux-binary-unsigned-} ;;
*)
	die "unknown stock kernel flavour '$flavour' (6.1, 6.12, 6.12-rt, 7.x or 7.x-rt)" ;;
esac
[ -n "$pkg" ] || die "apt-cache knows no $flavour kernel package (run 'apt-get update')"
ver=$("${apt_cache[@]}" policy "$pkg" | awk '/Candidate:/ {print $2}')
dir=$CACHE_DIR/stock/$pkg-$ver
# download PKG...: at $ver, unpacked into $dir/root
download() {
	local p
	(cd "$dir/deb" && "${apt_get[@]}" download "${@/%/=$ver}" >> "$LOGDIR/stock-download.log" 2>&1) || {
		cat "$LOGDIR/stock-download.log" >&2; die "apt-get download $* failed"; }
	for p in "$dir"/deb/*.deb; do
		dpkg-deb -x "$p" "$dir/root"
	done
	rm -f "$dir"/deb/*.deb
}
# One fetch at a time: make test's jobs and core-relocs may ask for the
# same kernel at once; a second asker waits, then finds it fetched.
mkdir -p "$CACHE_DIR/stock"
exec 7> "$CACHE_DIR/stock/.lock"
flock 7
if [ ! -f "$dir/btf" ]; then
	stage stock "downloading $pkg $ver (not installed on the host)"
	rm -rf "$dir"
	mkdir -p "$dir/deb" "$dir/early-modules" "$LOGDIR"
	: > "$LOGDIR/stock-download.log"
	if [ -n "$split" ]; then
		download "$pkg" "linux-base-$split"
		kdir=$dir/root/usr/lib/modules/$split
		cp "$kdir/vmlinuz.unsigned" "$dir/vmlinuz"
	else
		download "$pkg"
		cp "$dir"/root/boot/vmlinuz-* "$dir/vmlinuz"
		kdir=$(echo "$dir"/root/lib/modules/*)
	fi
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
		if [ -n "$split" ] && [ ! -d "$kdir/kernel" ]; then
			download "linux-modules-$split"
		fi
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
