#!/bin/bash
# packaging/oci/build-rootfs.sh DEB DIR: the build context of
# ucounttop's OCI image (packaging/oci/Containerfile) in DIR: the .deb's
# files (dpkg -x), the shared libraries the binary links and those it
# dlopen()s (libmicrohttpd with GnuTLS for --listen, libcrypt for basic
# auth), each copied from this Debian 12 machine under its soname, the
# loader, and an /etc/passwd and /etc/group naming root, ucounttop and
# nobody (mount the host's over them, so that the initial namespace's
# uids have the host's names). Prints DIR.
set -euo pipefail
[ $# = 2 ] || { echo "usage: $0 DEB DIR" >&2; exit 2; }
deb=$1 dir=$2
[ -f "$deb" ] || { echo "build-rootfs: $deb: no such package (make deb)" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"
dpkg -x "$deb" "$dir"
# the service's files are the host's business, not the image's
rm -rf "$dir/lib/systemd" "$dir/etc/default" "$dir/usr/lib/sysusers.d"
bin=$dir/usr/sbin/ucounttop
# put FILE: a library at its path (a soname: the link's name), its bytes
put() {
	install -D -m 0755 "$(readlink -f "$1")" "$dir$1"
}
dlopened() {
	local so
	for so in $(grep -aoE 'lib(microhttpd|crypt)\.so\.[0-9]+' "$bin" | sort -u); do
		ldconfig -p | awk -v s="$so" '$1 == s && /x86-64/ { print $NF; exit }'
	done
}
for lib in $(dlopened); do
	put "$lib"
	for dep in $(ldd "$lib" | grep -o '/[^ ]*'); do put "$dep"; done
done
for dep in $(ldd "$bin" | grep -o '/[^ ]*'); do put "$dep"; done
mkdir -p "$dir/etc" "$dir/tmp"
chmod 1777 "$dir/tmp"
printf '%s\n' 'root:x:0:0:root:/root:/bin/false' 'ucounttop:x:999:999:ucounttop:/nonexistent:/bin/false' \
	'nobody:x:65534:65534:nobody:/nonexistent:/bin/false' > "$dir/etc/passwd"
printf '%s\n' 'root:x:0:' 'ucounttop:x:999:' 'nogroup:x:65534:' > "$dir/etc/group"
echo "$dir"
