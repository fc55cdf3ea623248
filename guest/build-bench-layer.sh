#!/bin/bash
# The bench guest's extra files: Debian's bpftrace with every shared library
# it loads (and their loader), in $CACHE_DIR/bench-layer/bt, for make bench
# to copy into that guest only (guest/run --add ...:/opt/bt). The guest's own
# userland is static busybox and ucounttop, so bpftrace brings its libc too:
# run it as /opt/bt/run-bpftrace ARGS. About 200 MB: make test never pays it.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

bt=$(command -v bpftrace) || { echo "error: bpftrace not installed (guest/deps.sh --bench)" >&2; exit 1; }
layer=$CACHE_DIR/bench-layer/bt
stamp=$layer/.from
want="$(stat -c '%n %s %Y' "$bt")"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$layer"
	exit 0
fi
rm -rf "$layer"
mkdir -p "$layer/lib"
cp -L "$bt" "$layer/bpftrace"
# "libfoo.so => /path (addr)" and the loader's "/lib64/ld-linux... (addr)"
ldd "$bt" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' |
	while read -r lib; do cp -L "$lib" "$layer/lib/"; done
loader=$(ls "$layer"/lib/ld-linux-*.so.* | head -n 1)
cat > "$layer/run-bpftrace" <<EOS
#!/bin/sh
# bpftrace with its own libraries: the guest has no shared libc of its own
exec /opt/bt/lib/$(basename "$loader") --library-path /opt/bt/lib /opt/bt/bpftrace "\$@"
EOS
chmod 0755 "$layer/run-bpftrace"
echo "$want" > "$stamp"
echo "$layer"
