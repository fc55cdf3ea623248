#!/bin/bash
# build-engine-layer.sh: a container engine for the guest, out of the
# default initramfs (about 200 MB; make test never pays it):
# Debian 12's Docker (docker.io: dockerd, docker; containerd and its ctr,
# runc, tini)
# fetched with `apt-get download` from the machine's own sources and
# unpacked (`dpkg-deb -x`), never installed on the host, with the shared
# libraries its binaries link at the host's paths (the guest has the
# host's loader and libc already: guest/build-initramfs.sh); and a
# busybox image (the host's static busybox as /bin/busybox and a few
# applets), for `docker import`: nothing is pulled.
# Leaves $CACHE_DIR/engine-layer/<versions>/: docker/ (usr, lib, lib64,
# to add at the guest's /: guest/run --add DIR/usr:/usr ...) and
# busybox.tar. Prints that directory. tests/host/engines.sh boots it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkgs=(docker.io containerd runc tini)
busybox=/bin/busybox
case "$(ldd "$busybox" 2>&1 || true)" in
*'not a dynamic executable'*) ;;
*) die "$busybox is not a static busybox (guest/deps.sh: busybox-static)" ;;
esac
# the versions apt would fetch name the layer: a new one, a new layer
vers=
for p in "${pkgs[@]}"; do
	v=$(apt-cache policy "$p" 2> /dev/null | awk '/Candidate:/ { print $2 }')
	if [ -z "$v" ] || [ "$v" = "(none)" ]; then
		die "apt-cache knows no $p (run 'apt-get update')"
	fi
	vers="$vers $p=$v"
done
# and what this script takes of them (LAYOUT: raise it when that changes)
LAYOUT=2
key=$(printf '%s %s %s' "$vers" "$(stat -c '%s %Y' "$busybox")" "$LAYOUT" | sha256sum | cut -c1-16)
dir=$CACHE_DIR/engine-layer/$key
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/deb" "$dir/root" "$dir/docker"
# shellcheck disable=SC2086 # one word per package=version
(cd "$dir/deb" && apt-get download $vers > "$LOGDIR/engine-download.log" 2>&1) || {
	cat "$LOGDIR/engine-download.log" >&2; die "apt-get download$vers failed"; }
for d in "$dir"/deb/*.deb; do
	dpkg-deb -x "$d" "$dir/root"
done
# the binaries the engine runs, and what they link
bins=(usr/sbin/dockerd usr/bin/docker usr/bin/containerd usr/bin/containerd-shim-runc-v2
      usr/bin/ctr usr/sbin/runc usr/bin/docker-init)
for b in "${bins[@]}"; do
	[ -e "$dir/root/$b" ] || die "no $b in$vers"
	install -D -m 0755 "$dir/root/$b" "$dir/docker/$b"
	for lib in $(ldd "$dir/root/$b" 2> /dev/null | grep -o '/[^ ]*'); do
		[ -e "$dir/docker$lib" ] || install -D -m 0755 "$lib" "$dir/docker$lib"
	done
done
# dockerd runs runc from PATH, the shim finds it there too
ln -s ../sbin/runc "$dir/docker/usr/bin/runc"
# the image: busybox and the applets the tests run
img=$dir/image
mkdir -p "$img/bin"
install -m 0755 "$busybox" "$img/bin/busybox"
for a in sh sleep cat id true; do
	ln -s busybox "$img/bin/$a"
done
tar -C "$img" -cf "$dir/busybox.tar" .
rm -rf "$dir/deb" "$dir/root" "$img"
touch "$dir/.done"
echo "$dir"
