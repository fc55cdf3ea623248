#!/bin/bash
# Install the Debian 12 packages the build, the guest and the tests need.
# Only what is missing; `apt-get update` once, non-interactive. Without
# root, list what is missing and how to install it. --bench, --sweep,
# --screenshot: also what make bench, make sweep or make screenshot
# needs. Then promtool, which is not installed (below).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

PACKAGES=(
	linux-source-6.1 linux-source-6.12         # the kernel trees we patch (KTREE)
	build-essential flex bison bc libssl-dev libelf-dev dwarves ccache
	cpio xz-utils zstd patch rsync kmod perl       # kernel build, checkpatch, initramfs
	qemu-system-x86 busybox-static            # the guest
	clang llvm bpftool libbpf-dev zlib1g-dev libzstd-dev   # BPF + ucounttop
	libmicrohttpd-dev                         # ucounttop --listen (linked dynamically: cli/Makefile)
	libcmocka-dev                             # host unit tests
	man-db groff-base mandoc                  # ucounttop(8): rendering, the man page test and its lint
	libclang-rt-14-dev                        # libFuzzer + sanitizer runtimes (cli fuzz targets)
	python3-prometheus-client                 # its OpenMetrics and text parsers read --listen's output
	python3-yaml                              # tests/host/contrib.sh reads the rules and their tests
	openssl curl                              # test_listen: a certificate for --web.config.file, a TLS client
	lintian                                   # tests/host/package.sh: the .deb make deb builds
	tmux                                      # make run read from a terminal (tests/host/make-run.sh)
	sparse                                    # make check-series: C=1 on the files a patch touches
	strace systemd                            # tests/host/systemd-unit.sh: the unit's calls, systemd-analyze
)
# make bench only: the peer it is compared with (copied into the bench guest)
[ "${1:-}" = --bench ] && PACKAGES+=(bpftrace)
# make screenshot only: the browser that photographs the terminal
[ "${1:-}" = --screenshot ] && PACKAGES+=(chromium fonts-dejavu-core)
# make sweep only: the static libraries kselftest collections link, and a
# static bash for their scripts (copied into the sweep guest)
[ "${1:-}" = --sweep ] && PACKAGES+=(libcap-dev libcap-ng-dev libnuma-dev libmnl-dev libfuse-dev libpopt-dev bash-static file)

missing=()
for p in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' ||
		missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
	if [ "$(id -u)" != 0 ]; then
		echo "error: missing Debian packages: ${missing[*]}" >&2
		echo "install them as root:  apt-get update && apt-get install -y ${missing[*]}" >&2
		exit 1
	fi
	echo "deps: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -q
	apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# promtool, for `promtool check metrics` on what --listen serves
# (tests/host/openmetrics-endpoint.sh) and `promtool check rules` and
# `test rules` on contrib/prometheus (tests/host/contrib.sh), and the
# Prometheus server that scrapes the guest in tests/host/prometheus.sh
# come with Debian's prometheus package, which is not installed: that
# would also add a system user and, on a systemd machine, enable and start
# a Prometheus server on port 9090 that nobody asked for. Its .deb is
# downloaded instead (apt-get download: no root, no maintainer scripts)
# and only usr/bin/promtool and usr/bin/prometheus are unpacked, into
# $CACHE_DIR/promtool. A promtool already in PATH is used as it is.
PROMTOOL_DIR=$CACHE_DIR/promtool
if [ ! -x "$PROMTOOL_DIR/prometheus" ] ||
   { ! command -v promtool > /dev/null && [ ! -x "$PROMTOOL_DIR/promtool" ]; }; then
	echo "deps: promtool and prometheus from Debian's prometheus package, unpacked into $PROMTOOL_DIR (not installed)"
	dl=$(mktemp -d)
	trap 'rm -rf "$dl"' EXIT
	# as root, apt would fetch as _apt, which cannot write to our 0700 directory
	sandbox=()
	[ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
	(cd "$dl" && apt-get download -q "${sandbox[@]}" prometheus > /dev/null) ||
		die "apt-get download prometheus failed (run apt-get update as root first?)"
	dpkg-deb --fsys-tarfile "$dl"/prometheus_*.deb |
		tar -x -C "$dl" ./usr/bin/promtool ./usr/bin/prometheus
	mkdir -p "$PROMTOOL_DIR"
	install -m 0755 "$dl/usr/bin/promtool" "$PROMTOOL_DIR/promtool"
	install -m 0755 "$dl/usr/bin/prometheus" "$PROMTOOL_DIR/prometheus"
	basename "$dl"/prometheus_*.deb > "$PROMTOOL_DIR/from"
	rm -rf "$dl"
fi
# Debian's node_exporter, for the textfile route
# (tests/host/node-exporter.sh), the same way: installing
# prometheus-node-exporter would start a daemon on port 9100
if [ ! -x "$PROMTOOL_DIR/prometheus-node-exporter" ]; then
	echo "deps: prometheus-node-exporter from Debian's package, unpacked into $PROMTOOL_DIR (not installed)"
	dl=$(mktemp -d)
	trap 'rm -rf "$dl"' EXIT
	sandbox=()
	[ "$(id -u)" = 0 ] && sandbox=(-o APT::Sandbox::User=root)
	(cd "$dl" && apt-get download -q "${sandbox[@]}" prometheus-node-exporter > /dev/null) ||
		die "apt-get download prometheus-node-exporter failed (run apt-get update as root first?)"
	dpkg-deb --fsys-tarfile "$dl"/prometheus-node-exporter_*.deb |
		tar -x -C "$dl" ./usr/bin/prometheus-node-exporter
	mkdir -p "$PROMTOOL_DIR"
	install -m 0755 "$dl/usr/bin/prometheus-node-exporter" "$PROMTOOL_DIR/prometheus-node-exporter"
	rm -rf "$dl"
fi
