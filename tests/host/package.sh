#!/bin/bash
# make install and make deb, into scratch directories only: nothing is
# installed on the host, the host's dpkg database is never touched. TAP.
#
#  - make install DESTDIR PREFIX=/usr installs exactly the expected files,
#    with their modes; PREFIX defaults to /usr/local; make uninstall
#    removes them all; without a built binary make install fails, saying
#    to run make tools;
#  - make deb builds ucounttop_VERSION_ARCH.deb, VERSION what --version
#    prints; its control file has the Depends dpkg-shlibdeps finds and
#    Recommends the libraries ucounttop dlopen()s; it holds exactly the
#    expected files, owned by root, and their md5sums; lintian, if it is
#    installed, finds no error; apt-get, simulating an install on a bare
#    Debian 12 (an empty dpkg status), resolves its dependencies;
#  - unpacked with dpkg -x into a scratch root: ucounttop --version and
#    --help run (with no capability left: they stop before anything
#    touches the kernel), the binary is hardened (PIE, -z relro -z now,
#    stack protector, _FORTIFY_SOURCE), man -l renders the page, bash
#    loads the completion, and promtool checks and tests the rules where
#    they are.
#
# The binary is built on the host as tests/host/manpage.sh builds it
# (UCT_BIN=PATH uses PATH instead); nothing loads BPF.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/tools.sh"
: > "$tmp/err"

. "$(dirname "$0")/lib/cli.sh"
version=$(sed -n 's/^#define UCT_VERSION "\(.*\)"$/\1/p' "$UCT_ROOT/cli/lib/common.h")
arch=$(dpkg --print-architecture)
mk() { make -s -C "$UCT_ROOT" UCOUNTTOP="$bin" "$@"; }

# files DIR: the files and links below DIR, "MODE PATH", sorted
files() { (cd "$1" && find . ! -type d -printf '%m %P\n' | sort -k2); }

# ---- make install ---------------------------------------------------------
cat > "$tmp/want.install" <<'EOF'
755 usr/sbin/ucounttop
644 usr/share/bash-completion/completions/ucounttop
644 usr/share/man/man8/ucounttop.8
644 usr/share/ucounttop/grafana/ucounttop.json
644 usr/share/ucounttop/prometheus/ucounttop.rules.test.yml
644 usr/share/ucounttop/prometheus/ucounttop.rules.yml
EOF
inst=$tmp/install
mk install DESTDIR="$inst" PREFIX=/usr > "$tmp/out" 2>&1 || { echo "make install exited $?"; cat "$tmp/out"; } >> "$tmp/err"
files "$inst" | diff "$tmp/want.install" - | grep '^[<>]' |
	sed 's/^</expected, not installed:/; s/^>/installed, not expected:/' >> "$tmp/err"
cmp -s "$bin" "$inst/usr/sbin/ucounttop" || echo "usr/sbin/ucounttop is not $bin" >> "$tmp/err"
cmp -s "$UCT_ROOT/cli/ucounttop.8" "$inst/usr/share/man/man8/ucounttop.8" || echo "the page is not cli/ucounttop.8" >> "$tmp/err"
check "make install DESTDIR PREFIX=/usr installs exactly the tool, page, completion, rules, dashboard"

mk install DESTDIR="$tmp/local" > "$tmp/out" 2>&1 || { echo "make install exited $?"; cat "$tmp/out"; } >> "$tmp/err"
sed 's| usr/| usr/local/|' "$tmp/want.install" | diff - <(files "$tmp/local") | grep '^[<>]' >> "$tmp/err"
check "make install: PREFIX is /usr/local by default"

mk uninstall DESTDIR="$inst" PREFIX=/usr > "$tmp/out" 2>&1 || { echo "make uninstall exited $?"; cat "$tmp/out"; } >> "$tmp/err"
files "$inst" | sed 's/^/left: /' >> "$tmp/err"
[ -e "$inst/usr/share/ucounttop" ] && echo "left: usr/share/ucounttop/" >> "$tmp/err"
check "make uninstall removes every file make install installed"

rc=0
make -s -C "$UCT_ROOT" install UCOUNTTOP="$tmp/never-built" DESTDIR="$tmp/none" > "$tmp/out" 2>&1 || rc=$?
{
	[ "$rc" != 0 ] || echo "make install without a binary exited 0"
	grep -q "run 'make tools'" "$tmp/out" || { echo "it does not say to run make tools:"; cat "$tmp/out"; }
	[ ! -e "$tmp/none" ] || echo "it installed something: $(files "$tmp/none" | head -n 3)"
} >> "$tmp/err"
check "make install without a built binary fails, saying to run make tools, installing nothing"

# ---- make deb ---------------------------------------------------------------
if ! deb=$(mk deb DEB_DIR="$tmp/deb" 2> "$tmp/out"); then
	nok "make deb builds a package"
	diag < "$tmp/out"
	finish
fi
[ "$deb" = "$tmp/deb/ucounttop_${version}_$arch.deb" ] || echo "make deb printed '$deb'" >> "$tmp/err"
[ -f "$deb" ] || echo "no $deb" >> "$tmp/err"
check "make deb builds ucounttop_${version}_$arch.deb"

dpkg-deb --field "$deb" > "$tmp/control" 2>> "$tmp/err"
field() { sed -n "s/^$1: //p" "$tmp/control"; }
{
	[ "$(field Package)" = ucounttop ] || echo "Package: $(field Package)"
	[ "$(field Version)" = "$version" ] || echo "Version: $(field Version), not $version"
	[ "$(field Architecture)" = "$arch" ] || echo "Architecture: $(field Architecture)"
	for f in Maintainer Installed-Size Section Priority Description; do
		[ -n "$(field "$f")" ] || echo "no $f"
	done
	for p in libbpf1 libc6; do
		grep -qE "(^|, )$p( |,|$)" <<< "$(field Depends)" || echo "Depends ($(field Depends)) lacks $p"
	done
	for p in 'libmicrohttpd[0-9a-z]*' libcrypt1; do
		grep -qE "(^|, )$p( |,|$)" <<< "$(field Recommends)" || echo "Recommends ($(field Recommends)) lacks $p"
	done
	# what ucounttop links: nothing the package does not depend on
	objdump -p "$bin" | sed -n 's/^ *NEEDED *//p' | while read -r so; do
		p=$(dpkg-query -S "*/$so" 2> /dev/null | sed -n '1s/[:,].*//p')
		grep -qE "(^|, )$p( |,|$)" <<< "$(field Depends)" || echo "links $so ($p), not in Depends"
	done
} >> "$tmp/err"
check "dpkg-deb --info: ucounttop $(field Version), Depends: $(field Depends); Recommends: $(field Recommends)"

cat > "$tmp/want.deb" <<'EOF'
-rw-r--r-- root/root etc/default/ucounttop
-rw-r--r-- root/root lib/systemd/system/ucounttop.service
-rw-r--r-- root/root usr/lib/sysusers.d/ucounttop.conf
-rwxr-xr-x root/root usr/sbin/ucounttop
-rw-r--r-- root/root usr/share/bash-completion/completions/ucounttop
-rw-r--r-- root/root usr/share/doc/ucounttop/README.md.gz
-rw-r--r-- root/root usr/share/doc/ucounttop/changelog.Debian.gz
-rw-r--r-- root/root usr/share/doc/ucounttop/changelog.gz
-rw-r--r-- root/root usr/share/doc/ucounttop/copyright
-rw-r--r-- root/root usr/share/doc/ucounttop/runbook.md.gz
-rw-r--r-- root/root usr/share/man/man8/ucounttop.8.gz
-rw-r--r-- root/root usr/share/ucounttop/grafana/ucounttop.json
-rw-r--r-- root/root usr/share/ucounttop/prometheus/ucounttop.rules.test.yml
-rw-r--r-- root/root usr/share/ucounttop/prometheus/ucounttop.rules.yml
EOF
dpkg-deb --contents "$deb" > "$tmp/contents" 2>> "$tmp/err"
awk '$1 !~ /^d/ { p = $6; sub(/^\.\//, "", p); print $1, $2, p }' "$tmp/contents" | sort -k3 |
	diff "$tmp/want.deb" - | grep '^[<>]' | sed 's/^</expected, not in the package:/; s/^>/in the package, not expected:/' >> "$tmp/err"
awk '$1 ~ /^d/ && ($1 != "drwxr-xr-x" || $2 != "root/root") { print "directory:", $0 }' "$tmp/contents" >> "$tmp/err"
check "dpkg-deb --contents: exactly the expected files, owned by root, man page gzipped"

if command -v lintian > /dev/null; then
	lintian --fail-on error "$deb" > "$tmp/lintian" 2>&1 || cat "$tmp/lintian" >> "$tmp/err"
	check "lintian finds no error ($(grep -c '^W:' "$tmp/lintian") warnings)"
else
	ok "lintian # SKIP lintian is not installed"
fi

# what a bare Debian 12 would install with it, from this machine's apt
# lists: apt-get's simulation against an empty dpkg status (nothing is
# installed, nothing is written but the empty status file)
: > "$tmp/status"
apt-get install -s -o Dir::State::status="$tmp/status" "$deb" > "$tmp/sim" 2>&1 ||
	{ echo "apt-get install -s exited $?:"; grep '^E:' "$tmp/sim"; } >> "$tmp/err"
grep -q '^Inst ucounttop ' "$tmp/sim" || echo "apt-get would not install ucounttop" >> "$tmp/err"
check "apt-get installs it on a bare Debian 12 (simulated): $(grep -c '^Inst ' "$tmp/sim") packages with its dependencies"

# ---- the package, unpacked into a scratch root ----------------------------------
root=$tmp/root
dpkg -x "$deb" "$root" 2>> "$tmp/err"
dpkg-deb --control "$deb" "$tmp/DEBIAN" 2>> "$tmp/err"
(cd "$root" && md5sum --quiet -c "$tmp/DEBIAN/md5sums") >> "$tmp/err" 2>&1 || echo "md5sums do not match" >> "$tmp/err"
[ "$(wc -l < "$tmp/DEBIAN/md5sums")" = "$(grep -c '^-' "$tmp/want.deb")" ] ||
	echo "md5sums has $(wc -l < "$tmp/DEBIAN/md5sums") lines" >> "$tmp/err"
check "dpkg -x unpacks it into a scratch root; its md5sums match every file"

u=$root/usr/sbin/ucounttop
out=$("${guard[@]}" "$u" --version 2>> "$tmp/err") || echo "ucounttop --version exited $?" >> "$tmp/err"
[ "$out" = "ucounttop $version" ] || echo "ucounttop --version printed '$out', not 'ucounttop $version'" >> "$tmp/err"
"${guard[@]}" "$u" --help > "$tmp/help" 2>> "$tmp/err" || echo "ucounttop --help exited $?" >> "$tmp/err"
grep -q -- '--listen' "$tmp/help" || echo "--help does not list --listen" >> "$tmp/err"
file "$u" 2> /dev/null | grep -q 'not stripped' && echo "the binary is not stripped" >> "$tmp/err"
check "the unpacked ucounttop --version and --help run with no capability (stripped binary)"

# built hardened, as dpkg-buildflags' hardening=+all builds a package
# (whole outputs read, not piped into grep -q: pipefail)
{
	dyn=$(readelf -d "$u") segs=$(readelf -lW "$u") syms=$(nm -D "$u")
	grep -q 'FLAGS_1.*PIE' <<< "$dyn" || echo "not a position-independent executable"
	grep -q 'FLAGS_1.*NOW' <<< "$dyn" || echo "relocations not bound at start (-z now)"
	grep -q 'GNU_RELRO' <<< "$segs" || echo "no read-only relocations (-z relro)"
	grep 'GNU_STACK' <<< "$segs" | grep -q 'RWE' && echo "an executable stack"
	grep -q ' U __stack_chk_fail' <<< "$syms" || echo "no stack protector (__stack_chk_fail)"
	grep -q ' U __snprintf_chk' <<< "$syms" || echo "libc calls not fortified (no __snprintf_chk)"
} >> "$tmp/err" 2>&1
check "the binary is hardened: PIE, -z relro -z now, stack protector, _FORTIFY_SOURCE, no executable stack"

if command -v man > /dev/null; then
	MANWIDTH=80 LC_ALL=C.UTF-8 man -l "$root/usr/share/man/man8/ucounttop.8.gz" > "$tmp/man.txt" 2>> "$tmp/err" ||
		echo "man -l exited $?" >> "$tmp/err"
	grep -qx NAME "$tmp/man.txt" && grep -q 'ucounttop' "$tmp/man.txt" ||
		echo "the rendered page has no NAME section" >> "$tmp/err"
	check "man -l renders the installed ucounttop.8.gz"
else
	nok "man -l renders the installed page: man is not installed (guest/deps.sh: man-db)"
fi

# shellcheck disable=SC2016 # for that bash
bash --norc --noprofile -c '. "$1" && complete -p ucounttop' _ \
	"$root/usr/share/bash-completion/completions/ucounttop" > "$tmp/complete" 2>> "$tmp/err"
grep -q 'complete .* ucounttop$' "$tmp/complete" || echo "no completion for ucounttop: $(cat "$tmp/complete")" >> "$tmp/err"
check "bash loads the installed completion, which completes ucounttop"

if [ -x "$PROMTOOL" ]; then
	d=$root/usr/share/ucounttop/prometheus
	{ "$PROMTOOL" check rules "$d/ucounttop.rules.yml" && (cd "$d" && "$PROMTOOL" test rules ucounttop.rules.test.yml); } \
		> "$tmp/out" 2>&1 || cat "$tmp/out" >> "$tmp/err"
	check "promtool checks and tests the installed rules where they are"
else
	nok "promtool is at $PROMTOOL (guest/deps.sh unpacks it)"
fi
finish
