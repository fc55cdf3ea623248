#!/bin/bash
# extract-btf.sh BZIMAGE OUT: the raw BTF (.BTF section) of a compressed
# kernel image, for reading a stock kernel's types on the host without
# booting it. The image's payload is found by its compression's magic
# bytes; the first candidate that decompresses to an ELF file with a .BTF
# section wins.
set -euo pipefail
export LC_ALL=C
img=$1 out=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

try() {	# try MAGIC DECOMPRESSOR...
	local magic=$1 off
	shift
	for off in $(grep -aboP "$magic" "$img" 2> /dev/null | cut -d: -f1 | head -n 8); do
		tail -c +$((off + 1)) "$img" | "$@" > "$tmp/vmlinux" 2> /dev/null || true
		if [ "$(head -c 4 "$tmp/vmlinux" | od -An -c | tr -d ' ')" = '177ELF' ] &&
		   objcopy -O binary --only-section=.BTF "$tmp/vmlinux" "$tmp/btf" 2> /dev/null &&
		   [ -s "$tmp/btf" ]; then
			mv "$tmp/btf" "$out"
			return 0
		fi
	done
	return 1
}
try '\x28\xb5\x2f\xfd' zstd -dc ||
try '\xfd\x37\x7a\x58\x5a\x00' xz -dc ||
try '\x1f\x8b\x08' gzip -dc ||
{ echo "extract-btf: no ELF image with a .BTF section found in $img" >&2; exit 1; }
