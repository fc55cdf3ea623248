#!/bin/bash
# build-engine-layer.sh: container engines for the guest, out of the
# default initramfs (about 250 MB; make test never pays it):
# Debian 12's Docker (docker.io: dockerd, docker; containerd and its ctr,
# runc, tini) and Podman (podman, crun, conmon, catatonit, and uidmap's
# setuid newuidmap/newgidmap for rootless Podman's subordinate ids),
# fetched with `apt-get download` from the machine's own sources and
# unpacked (`dpkg-deb -x`), never installed on the host, with the shared
# libraries their binaries link: the host's where it has them (the guest
# has the host's loader and libc already: guest/build-initramfs.sh), the
# downloaded packages' otherwise; and a busybox image (the host's static
# busybox as /bin/busybox and a few applets), for `docker import` and
# `podman import`: nothing is pulled.
# Leaves $CACHE_DIR/engine-layer/<versions>/: engines/ (usr, lib, etc,
# to add at the guest's /: guest/run --add DIR/usr:/usr ...) and
# busybox.tar. Prints that directory. tests/host/engines.sh boots it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# the engines, and the libraries of theirs a host may lack
pkgs=(docker.io containerd runc tini podman crun conmon catatonit uidmap
      golang-github-containers-common golang-github-containers-image
      libgpgme11 libsubid4 libyajl2 libassuan0)
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
LAYOUT=3
key=$(printf '%s %s %s' "$vers" "$(stat -c '%s %Y' "$busybox")" "$LAYOUT" | sha256sum | cut -c1-16)
dir=$CACHE_DIR/engine-layer/$key
if [ -f "$dir/.done" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir/deb" "$dir/root" "$dir/engines"
# shellcheck disable=SC2086 # one word per package=version
(cd "$dir/deb" && apt-get download $vers > "$LOGDIR/engine-download.log" 2>&1) || {
	cat "$LOGDIR/engine-download.log" >&2; die "apt-get download$vers failed"; }
for d in "$dir"/deb/*.deb; do
	dpkg-deb -x "$d" "$dir/root"
done
# the binaries the engines run, and what they link: the host's library
# where it has it, the unpacked packages' where it does not
bins=(usr/sbin/dockerd usr/bin/docker usr/bin/containerd usr/bin/containerd-shim-runc-v2
      usr/bin/ctr usr/sbin/runc usr/bin/docker-init
      usr/bin/podman usr/bin/crun usr/bin/conmon usr/bin/catatonit
      usr/bin/newuidmap usr/bin/newgidmap)
unpacked=$dir/root/usr/lib/x86_64-linux-gnu:$dir/root/lib/x86_64-linux-gnu
for b in "${bins[@]}"; do
	[ -e "$dir/root/$b" ] || die "no $b in$vers"
	install -D -m 0755 "$dir/root/$b" "$dir/engines/$b"
	for lib in $(LD_LIBRARY_PATH=$unpacked ldd "$dir/root/$b" 2> /dev/null | grep -o '/[^ ]*'); do
		at=${lib#"$dir/root"}
		[ -e "$dir/engines$at" ] || install -D -m 0755 "$lib" "$dir/engines$at"
	done
	if LD_LIBRARY_PATH=$unpacked ldd "$dir/root/$b" 2> /dev/null | grep -q 'not found'; then
		die "$b links a library neither the host nor$vers has"
	fi
done
# rootless Podman maps its subordinate ids through these: setuid root
# (guest/run's cpio makes every file root's)
chmod 4755 "$dir/engines/usr/bin/newuidmap" "$dir/engines/usr/bin/newgidmap"
# dockerd runs runc from PATH, the shim finds it there too; Podman looks
# for catatonit (--init, its pause process) in its libexec
ln -s ../sbin/runc "$dir/engines/usr/bin/runc"
mkdir -p "$dir/engines/usr/libexec/podman"
ln -s ../../bin/catatonit "$dir/engines/usr/libexec/podman/catatonit"
# Podman's defaults: containers.conf, seccomp.json, registries, policy
for d in usr/share/containers etc/containers; do
	[ -d "$dir/root/$d" ] && mkdir -p "$dir/engines/$d" && cp -a "$dir/root/$d/." "$dir/engines/$d/"
done
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
