#!/bin/bash
# Install the Debian 12 packages the build, the guest and the tests need.
# Only what is missing; `apt-get update` once, non-interactive. Without
# root, list what is missing and how to install it. --bench: also what
# make bench needs.
set -euo pipefail

PACKAGES=(
	linux-source-6.1                          # the kernel tree we patch
	build-essential flex bison bc libssl-dev libelf-dev dwarves ccache
	cpio xz-utils patch rsync kmod perl       # kernel build, checkpatch, initramfs
	qemu-system-x86 busybox-static            # the guest
	clang llvm bpftool libbpf-dev zlib1g-dev libzstd-dev   # BPF + static ucounttop
	libcmocka-dev                             # host unit tests
	man-db groff-base                         # ucounttop(8): rendering, the man page test
	libclang-rt-14-dev                        # libFuzzer + sanitizer runtimes (cli fuzz targets)
)
# make bench only: the peer it is compared with (copied into the bench guest)
[ "${1:-}" = --bench ] && PACKAGES+=(bpftrace)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ]; then
	echo "error: missing Debian packages: ${missing[*]}" >&2
	echo "install them as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
