#!/bin/bash
# engines: ucounttop beside real container engines, in a guest that has
# them (TAP). The engine layer (guest/build-engine-layer.sh: Debian 12's
# Docker and Podman, fetched and unpacked, never installed on the host;
# Podman's default configuration at /etc/containers) is added to a
# guest of Debian's stock 7.x kernel, which runc can confine: runc's
# device rules are a cgroup BPF program, and our guest kernel's config
# leaves CONFIG_CGROUP_BPF out. Runs guest tests 5K (Docker), 5L
# (containerd as Kubernetes' CRI plugin runs a pod), 5M (Docker with
# --userns-remap), 5N (rootless Podman) and 5O (ucounttop's OCI image,
# built from the .deb's context here). Not in the default matrix:
# about 250 MB more initramfs and a minute more.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

layer=$("$UCT_ROOT/guest/build-engine-layer.sh" | tail -n 1) ||
	{ echo "Bail out! the engine layer was not built"; exit 1; }
dir=$("$UCT_ROOT/guest/fetch-stock-kernel.sh" 7.x | tail -n 1) ||
	{ echo "Bail out! the stock 7.x kernel was not fetched"; exit 1; }
tap=$(mktemp)
oci=$(mktemp -d)
trap 'rm -rf "$tap" "$oci"' EXIT
# 5O's image context: the .deb of the host build, its files and libraries
deb=$(make -s -C "$UCT_ROOT" deb UCOUNTTOP="$UCT_OUT/cli/ucounttop" DEB_DIR="$oci/deb" | tail -n 1) &&
	"$UCT_ROOT/packaging/oci/build-rootfs.sh" "$deb" "$oci/ctx/rootfs" > /dev/null &&
	cp "$UCT_ROOT/packaging/oci/Containerfile" "$oci/ctx/" ||
	{ echo "Bail out! the image's context was not built"; exit 1; }
rc=0
console=$LOGDIR/engines.console
"$UCT_ROOT/guest/run" -q --smp "${ENGINES_SMP:-2}" --mem 3072 --timeout 1200 \
	--kernel "$dir/vmlinuz" --tree "$MAINLINE_TREE" \
	--add "$dir/early-modules:/uct/early-modules" \
	--add "$layer/engines/usr:/usr" --add "$layer/engines/lib:/lib" \
	--add "$layer/engines/etc/containers:/etc/containers" --add "$oci/ctx:/uct/add/oci" \
	--results "$tap" --console "$console" \
	-- /uct/run-tests /uct/tests/5K-ucounttop-docker.sh /uct/tests/5L-ucounttop-containerd-pods.sh \
	/uct/tests/5M-ucounttop-docker-userns-remap.sh /uct/tests/5N-ucounttop-rootless-podman.sh \
	/uct/tests/5O-ucounttop-image.sh || rc=$?
sed -E 's/^(not ok|ok) ([0-9]+) /\1 \2 engines: /' "$tap"
[ "$rc" = 0 ] || echo "# guest exited $rc (console: $console)"
exit "$rc"
