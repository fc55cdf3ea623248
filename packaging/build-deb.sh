#!/bin/bash
# packaging/build-deb.sh BIN OUTDIR: a Debian package of ucounttop, from
# the tree and the binary BIN (what `make tools` built), into
# OUTDIR/ucounttop_VERSION_ARCH.deb; prints that path. `make deb` runs it.
#
# dpkg-deb --build on what `make install PREFIX=/usr` installs, no
# debhelper and no root (--root-owner-group): the binary stripped, the
# man page gzipped, a copyright file, a changelog, md5sums; and the
# service: packaging/debian's unit, its /etc/default file (a conffile),
# the sysusers.d entry of its user, and the maintainer scripts that make
# the user and enable and start the unit, as debhelper's would. The version is
# the one `ucounttop --version` prints (cli/lib/common.h). Depends is
# dpkg-shlibdeps' from the libraries the binary links (libbpf and libc:
# libelf and zlib come with libbpf); Recommends the packages of the
# libraries it dlopen()s for --listen (libmicrohttpd) and
# --web.config.file's basic auth (libcrypt), whose sonames are string
# literals in the binary that are not among its NEEDED ones.
# DEB_MAINTAINER overrides the Maintainer field; SOURCE_DATE_EPOCH the
# changelog's date.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd -P)

die() {
	echo "build-deb: error: $*" >&2
	exit 1
}

[ $# = 2 ] || die "usage: $0 BIN OUTDIR"
bin=$1 outdir=$2
[ -x "$bin" ] || die "$bin is not built: run 'make tools' first (it needs the 6.1 kernel's BTF), or give UCOUNTTOP=PATH"
for t in dpkg-deb dpkg-shlibdeps objdump strip; do
	command -v "$t" > /dev/null || die "$t is missing (dpkg-dev, binutils: build-essential)"
done
version=$(sed -n 's/^#define UCT_VERSION "\(.*\)"$/\1/p' "$root/cli/lib/common.h")
[ -n "$version" ] || die "no UCT_VERSION in cli/lib/common.h"
arch=$(dpkg --print-architecture)
maintainer=${DEB_MAINTAINER:-ucounttop developers <dev@ucounttop.invalid>}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# dpkg-shlibdeps reads debian/control and expects the package's files in
# debian/PACKAGE
pkg=$work/debian/ucounttop
mkdir "$work/debian"
printf 'Source: ucounttop\n\nPackage: ucounttop\nArchitecture: any\n' > "$work/debian/control"
make -s -C "$root" install DESTDIR="$pkg" PREFIX=/usr UCOUNTTOP="$bin" > /dev/null

strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/sbin/ucounttop"
gzip -9n "$pkg/usr/share/man/man8/ucounttop.8"
doc=$pkg/usr/share/doc/ucounttop
install -d "$doc"
install -m 0644 "$root/packaging/debian/copyright" "$doc/copyright"
install -m 0644 "$root/README.md" "$doc/README.md"
gzip -9n "$doc/README.md"
# the upstream changelog, where Debian's policy puts it
install -m 0644 "$root/CHANGELOG.md" "$doc/changelog"
gzip -9n "$doc/changelog"
# what the alerts' runbook_url point at (contrib/prometheus)
install -m 0644 "$root/docs/runbook.md" "$doc/runbook.md"
gzip -9n "$doc/runbook.md"
# the service
install -D -m 0644 "$root/packaging/debian/ucounttop.service" "$pkg/lib/systemd/system/ucounttop.service"
install -D -m 0644 "$root/packaging/debian/ucounttop.default" "$pkg/etc/default/ucounttop"
install -D -m 0644 "$root/packaging/debian/ucounttop.sysusers" "$pkg/usr/lib/sysusers.d/ucounttop.conf"
date=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}")
printf 'ucounttop (%s) unstable; urgency=medium\n\n  * Built from the ucounttop tree.\n\n -- %s  %s\n' \
	"$version" "$maintainer" "$date" | gzip -9n > "$doc/changelog.Debian.gz"
chmod 0644 "$doc/changelog.Debian.gz"

# Depends: what the binary links
depends=$(cd "$work" && dpkg-shlibdeps -O -e "$pkg/usr/sbin/ucounttop" 2> "$work/shlibdeps.err" |
	sed -n 's/^shlibs:Depends=//p') || true
[ -n "$depends" ] || { cat "$work/shlibdeps.err" >&2; die "dpkg-shlibdeps found no dependency"; }
# Recommends: what it dlopen()s (sonames it names but does not link)
needed=$(objdump -p "$bin" | sed -n 's/^ *NEEDED *//p')
recommends=
while read -r so; do
	grep -qxF "$so" <<< "$needed" && continue
	p=$(dpkg-query -S "*/$so" 2> /dev/null | sed -n '1s/[:,].*//p') || true
	[ -n "$p" ] || die "no installed package has $so, which ucounttop dlopen()s"
	recommends="${recommends:+$recommends, }$p"
done < <(grep -aoE 'lib[a-z0-9_+-]+\.so\.[0-9]+' "$bin" | sort -u)

install -d "$pkg/DEBIAN"
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: ucounttop
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $(du -sk "$pkg/usr" "$pkg/lib" "$pkg/etc" | awk '{ s += $1 } END { print s }')
Depends: $depends, adduser
${recommends:+Recommends: $recommends
}Section: admin
Priority: optional
Description: per-user-namespace rlimit counters of the kernel, live
 ucounttop shows the kernel's per-user-namespace rlimit counters (struct
 ucounts: RLIMIT_NPROC, RLIMIT_MSGQUEUE, RLIMIT_SIGPENDING, RLIMIT_MEMLOCK)
 row by row, which level of a namespace tree refused a charge, and traces
 every charge to them, through BPF programs (CO-RE). It serves them to
 Prometheus (--listen) and checks that a command leaves them balanced.
 .
 Prometheus alerting rules and a Grafana dashboard are in
 /usr/share/ucounttop.
CONTROL
(cd "$pkg" && find usr lib etc -type f -print0 | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
echo /etc/default/ucounttop > "$pkg/DEBIAN/conffiles"
for s in postinst prerm postrm; do
	install -m 0755 "$root/packaging/debian/$s" "$pkg/DEBIAN/$s"
done
chmod 0644 "$pkg/DEBIAN/control" "$pkg/DEBIAN/md5sums" "$pkg/DEBIAN/conffiles"

mkdir -p "$outdir"
deb=$outdir/ucounttop_${version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" > /dev/null
echo "$deb"
