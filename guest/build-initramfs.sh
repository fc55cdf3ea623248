#!/bin/bash
# Assemble the guest's base initramfs: busybox, bpftool and ucounttop with
# their shared libraries, the kselftest binaries, our tools and BPF
# objects, the guest tests and init. Cheap (about 20 MB, uncompressed), so
# it is rebuilt on every call.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# ucounttop, the tools and the BPF objects are the same for every tree;
# the kselftests and the test module are built from $KTREE's tree
OUT=$UCT_OUT
IMG=$TOUT/initramfs/base.cpio
mkdir -p "$TOUT/initramfs"
# Staged privately and renamed into place: several checkouts (CI, helpers'
# guest/run calls) may rebuild it at once.
ROOT=$(mktemp -d "$TOUT/initramfs/root.XXXXXX")
trap 'rm -rf "$ROOT"' EXIT
mkdir -p "$ROOT"/{bin,sbin,usr/bin,usr/sbin,uct/bin,uct/bpf,uct/tests,uct/selftests,etc}

install -m 0755 /bin/busybox "$ROOT/bin/busybox"
install -m 0755 "$UCT_ROOT/guest/init" "$ROOT/init"
install -m 0755 "$UCT_ROOT/guest/run-tests.sh" "$ROOT/uct/run-tests"
# uids 1000 and 2000 have names: the tests' workloads run as kuid 1000,
# which a namespace of 5A maps to 2000 and names otherwise in a root of
# its own (ucounttop names each uid as its namespace's passwd file does);
# the live view's main process runs as ucounttop (--run-as), as a
# package's system user would be
printf '%s\n' 'root:x:0:0:root:/root:/bin/sh' 'alice:x:1000:1000:uct test user:/tmp:/bin/sh' \
	'bob:x:2000:2000:uct test user:/tmp:/bin/sh' \
	'ucounttop:x:999:999:ucounttop:/nonexistent:/bin/false' > "$ROOT/etc/passwd"
printf '%s\n' 'root:x:0:' 'alice:x:1000:' 'bob:x:2000:' 'ucounttop:x:999:' > "$ROOT/etc/group"

# Debian's bpftool and ucounttop, with the shared libraries they link and
# the loader, at the host's paths (ldd lists both; a static binary, none).
copy_with_libs() {
	local bin=$1 dest=$2 lib
	install -D -m 0755 "$bin" "$ROOT$dest"
	for lib in $(ldd "$bin" 2> /dev/null | grep -o '/[^ ]*'); do
		[ -e "$ROOT$lib" ] || install -D -m 0755 "$lib" "$ROOT$lib"
	done
}
copy_with_libs /usr/sbin/bpftool /usr/sbin/bpftool

for t in "$UCT_ROOT"/guest/tests/*.sh; do
	[ -e "$t" ] && install -m 0755 "$t" "$ROOT/uct/tests/"
done
# helpers the tests source (a subdirectory: /uct/run-tests runs only *.sh)
cp -r "$UCT_ROOT/guest/tests/lib" "$ROOT/uct/tests/lib"
if [ -d "$TOUT/selftests" ]; then
	cp -a "$TOUT/selftests/." "$ROOT/uct/selftests/"
fi
# ucounttop links libbpf dynamically, and --listen dlopen()s libmicrohttpd
# (and so GnuTLS), which ldd does not list: cli/Makefile, cli/http/mhd.h
for f in "$OUT"/cli/ucounttop "$OUT"/tools/uct-*; do
	[ -x "$f" ] && [ -f "$f" ] && copy_with_libs "$f" "/uct/bin/${f##*/}"
done
mhd=$(readlink -f "$(gcc -print-file-name=libmicrohttpd.so)")
soname=$(objdump -p "$mhd" | sed -n 's/^ *SONAME *//p')
copy_with_libs "$mhd" "$mhd"
ln -sf "${mhd##*/}" "$ROOT${mhd%/*}/$soname"
# and --web.config.file's basic_auth_users dlopen()s libcrypt (bcrypt):
# cli/http/basic_auth.c
crypt=$(readlink -f "$(gcc -print-file-name=libcrypt.so)")
soname=$(objdump -p "$crypt" | sed -n 's/^ *SONAME *//p')
copy_with_libs "$crypt" "$crypt"
ln -sf "${crypt##*/}" "$ROOT${crypt%/*}/$soname"
for f in "$OUT"/bpf/*.bpf.o; do
	[ -f "$f" ] && install -m 0644 "$f" "$ROOT/uct/bpf/"
done
# ucounttop(8): the source, and a plain-text rendering, since the guest's
# busybox has neither man nor groff (read it with less). No completion
# file: the guest's shell is busybox sh, not bash.
install -D -m 0644 "$UCT_ROOT/cli/ucounttop.8" "$ROOT/usr/share/man/man8/ucounttop.8"
if command -v groff > /dev/null; then
	mkdir -p "$ROOT/usr/share/man/cat8"
	LC_ALL=C groff -man -Tascii -P-cbou "$UCT_ROOT/cli/ucounttop.8" \
		> "$ROOT/usr/share/man/cat8/ucounttop.8"
fi
if [ -d "$TOUT/modules" ]; then
	mkdir -p "$ROOT/uct/modules"
	cp -a "$TOUT/modules/." "$ROOT/uct/modules/"
fi

(cd "$ROOT" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) > "$ROOT.cpio"
mv "$ROOT.cpio" "$IMG"
stage initramfs "$IMG ($(du -h "$IMG" | cut -f1))"
