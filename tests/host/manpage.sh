#!/bin/bash
# The ucounttop(8) man page and the bash completion, against the tool they
# describe. TAP.
#
#  - the page renders without a warning (groff -ww, man --warnings, and
#    mandoc -T lint, installed by guest/deps.sh);
#  - the options of --help, of opts.c's option table, of the page's OPTIONS
#    subsections and of its SYNOPSIS are the same, per command; and what
#    the page says each command takes is what the parser accepts (probed
#    with `ucounttop [CMD] OPTION [VALUE] --help`, which parses OPTION,
#    then stops at --help);
#  - the completion script is valid bash and offers, per command, exactly
#    the options the page lists for it, and the values --help lists;
#  - EXIT STATUS lists the exit codes cli/lib/common.h defines, and --help
#    agrees.
#
# The binary is built on the host as tests/run.sh builds it (UCT_BIN=PATH
# uses PATH instead) and only ever runs to parse options: every run is
# under setpriv with no capability left, so that even a parser bug that
# went on past --help could not load a BPF program (ucounttop stops with
# exit 3 before anything touches the kernel); a run with strace proves
# that --help makes no bpf() call at all.
set -uo pipefail
. "$(dirname "$0")/../../guest/lib.sh"

page=$UCT_ROOT/cli/ucounttop.8
comp=$UCT_ROOT/cli/completion/ucounttop.bash
common_h=$UCT_ROOT/cli/lib/common.h
opts_c=$UCT_ROOT/cli/opts.c
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib/tap.sh"

: > "$tmp/err"

# ---- the binary, and a way to run it that can never load BPF ----------------
. "$(dirname "$0")/lib/cli.sh"

caps=$("${guard[@]}" grep -E '^Cap(Inh|Prm|Eff|Amb):' /proc/self/status 2>&1)
if [ -x "$bin" ] && ! grep -qv ':[[:space:]]*0*$' <<< "$caps"; then
	ok "ucounttop runs with no capability (${guard[*]})"
else
	nok "ucounttop runs with no capability (${guard[*]})"
	{ ls -l "$bin"; printf '%s\n' "$caps"; } 2>&1 | diag
	finish
fi
uct() { "${guard[@]}" "$bin" "$@"; }

if command -v strace > /dev/null; then
	for c in "" trace check; do
		# shellcheck disable=SC2086 # no command: no word
		"${guard[@]}" strace -f -qq -e trace=bpf,perf_event_open -o "$tmp/strace" \
			"$bin" $c --help > /dev/null 2>> "$tmp/err" || echo "exit $? under strace" >> "$tmp/err"
		grep -E 'bpf\(|perf_event_open\(' "$tmp/strace" | head -n 3 >> "$tmp/err"
	done
	check "--help of every command makes no bpf() or perf_event_open() call"
else
	ok "--help makes no bpf() call # SKIP strace is not installed"
fi

uct --help > "$tmp/help" 2>> "$tmp/err" || echo "ucounttop --help exited $?" >> "$tmp/err"
for c in top trace check; do
	uct "$c" --help > "$tmp/help.$c" 2>> "$tmp/err" || echo "ucounttop $c --help exited $?" >> "$tmp/err"
	cmp -s "$tmp/help" "$tmp/help.$c" || echo "ucounttop $c --help differs from ucounttop --help" >> "$tmp/err"
done
[ "$(tail -n 1 "$tmp/help")" = "See ucounttop(8) (man -l cli/ucounttop.8 on the host)." ] ||
	echo "last line of --help: $(tail -n 1 "$tmp/help")" >> "$tmp/err"
check "--help (the same for every command) ends pointing to ucounttop(8)"

# ---- (a) the page renders without warnings ----------------------------------
if command -v groff > /dev/null; then
	LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z "$page" > "$tmp/err" 2>&1
	check "groff -man -Tutf8 -ww renders the page without a warning"
else
	nok "groff -man -ww renders the page: groff is not installed (guest/deps.sh: groff-base)"
fi
if command -v man > /dev/null; then
	# man -l: what a reader runs; --warnings passes -ww to groff
	MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$page" > "$tmp/man.txt" 2> "$tmp/err"
	for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS KEYS OUTPUT 'EXIT STATUS' \
		ENVIRONMENT FILES EXAMPLES 'SEE ALSO'; do
		grep -qx "$s" "$tmp/man.txt" || echo "rendered page has no section $s" >> "$tmp/err"
	done
	check "man -l renders the page without a warning, with every section"
else
	nok "man -l renders the page: man is not installed (guest/deps.sh: man-db)"
fi
if command -v mandoc > /dev/null; then
	mandoc -T lint -W warning "$page" > "$tmp/err" 2>&1
	check "mandoc -T lint finds nothing"
else
	ok "mandoc -T lint # SKIP mandoc is not installed"
fi

# ---- what the page says ------------------------------------------------------
# One line per option entry of OPTIONS: KEY SHORT LONG METAVAR ('-': none),
# KEY top, trace, check or all (.SS "Options of the live view", "of trace",
# "of check", "of every command").
awk '
function key(t) {
	if (t ~ /live view/) return "top"
	if (t ~ /trace/) return "trace"
	if (t ~ /check/) return "check"
	if (t ~ /every command/) return "all"
	return "?"
}
/^\.SH / { sec = $0; sub(/^\.SH +/, "", sec); gsub(/"/, "", sec); ss = "?"; tp = 0; next }
sec != "OPTIONS" { next }
/^\.SS / { ss = key($0); next }
/^\.TP/ { tp = 1; next }
tp {
	tp = 0; l = $0
	sub(/^\.[A-Z]+ */, "", l)
	gsub(/\\f[BIRP]/, "", l); gsub(/\\-/, "-", l); gsub(/["(),]/, " ", l)
	s = "-"; lg = "-"; mv = "-"
	nw = split(l, w, " ")
	for (i = 1; i <= nw; i++) {
		if (w[i] ~ /^--[A-Za-z][A-Za-z.-]*$/) lg = w[i]
		else if (w[i] ~ /^-[A-Za-z]$/) s = w[i]
		else if (mv == "-") mv = w[i]
	}
	print ss, s, lg, mv
}' "$page" > "$tmp/man.opts"

# canon OPTION: the long form of an option the page lists with both forms
canon() {
	awk -v o="$1" '$2 == o && $3 != "-" { print $3; f = 1; exit } END { if (!f) print o }' \
		"$tmp/man.opts"
}
# canon_all: canon of each word of stdin, sorted, unique
canon_all() {
	local o
	while read -r o; do canon "$o"; done | sort -u
}
# man_opts KEY...: every form (short and long) of the options under KEYs
man_opts() {
	awk -v keys=" $* " 'index(keys, " " $1 " ") {
		if ($2 != "-") print $2
		if ($3 != "-") print $3
	}' "$tmp/man.opts" | sort -u
}
# words: the options (-x, --long, --web.config.file) in a text on stdin
words() {
	grep -oE '(^|[[:space:](,/])--?[A-Za-z][A-Za-z-]*(\.[A-Za-z][A-Za-z-]*)*' | sed 's/^[^-]*//' |
		sort -u
}

# ---- (b) options: --help, opts.c, the page -----------------------------------
# (not the last line: its -l is man's)
grep -v '^See ucounttop(8)' "$tmp/help" | words > "$tmp/help.opts"
man_opts top trace check all > "$tmp/man.all"
comm -23 "$tmp/help.opts" "$tmp/man.all" | sed 's/^/in --help, not in the OPTIONS of the page: /' > "$tmp/err"
check "every option --help prints is in the page's OPTIONS"
comm -13 "$tmp/help.opts" "$tmp/man.all" | sed 's/^/in the page'"'"'s OPTIONS, not in --help: /' > "$tmp/err"
check "every option in the page's OPTIONS is in --help"

# opts.c's longopts[] and SHORT_LETTERS: what getopt really takes
{
	sed -n '/^static const struct option longopts/,/^};/p' "$opts_c" |
		grep -oE '^[[:space:]]*\{ "[a-z.-]+"' | grep -oE '[a-z.-]+' | sed 's/^/--/'
	sed -n 's/^#define SHORT_LETTERS "\([A-Za-z]*\)".*/\1/p' "$opts_c" | grep -o . | sed 's/^/-/'
} | sort -u > "$tmp/src.opts"
if [ "$(wc -l < "$tmp/src.opts")" -lt 20 ]; then
	echo "could not read the option table of $opts_c" > "$tmp/err"
else
	diff "$tmp/src.opts" "$tmp/man.all" | grep '^[<>]' |
		sed 's/^</in opts.c, not in the page:/; s/^>/in the page, not in opts.c:/' > "$tmp/err"
fi
check "the page's OPTIONS are exactly opts.c's option table"

# --help's own per-command lists ("trace options: ...", "check options: ..."
# and the live view's block) name the same options as the page's subsections
sed -n '/^Options (of the live view/,/^Numbers are plain/p' "$tmp/help" | words | canon_all > "$tmp/h.top"
sed -n '/^trace options:/,/^$/p' "$tmp/help" | words | canon_all > "$tmp/h.trace"
sed -n '/^check options:/,/^$/p' "$tmp/help" | words | canon_all > "$tmp/h.check"
man_opts top all | canon_all > "$tmp/m.top"
for c in trace check; do
	{ man_opts "$c"; echo -v; } | canon_all > "$tmp/m.$c"	# --help lists -v per command, not -h, -V
done
for c in top trace check; do
	diff "$tmp/h.$c" "$tmp/m.$c" | grep '^[<>]' |
		sed "s/^</$c: in --help, not in the page:/; s/^>/$c: in the page, not in --help:/" >> "$tmp/err"
done
check "--help's option list of each command is the page's"

# SYNOPSIS: one .SY block per command (and one for -h/-V) with its options
awk '
/^\.SY/ { blk = $0; sub(/^\.SY +/, "", blk); gsub(/"/, "", blk); inb = 1; buf = ""; next }
/^\.YS/ {
	if (blk == "ucounttop trace") key = "trace"
	else if (blk == "ucounttop check") key = "check"
	else if (buf ~ /--help/) key = "help"
	else key = "top"
	nw = split(buf, w, " ")
	for (i = 1; i <= nw; i++) if (w[i] ~ /^--?[A-Za-z][A-Za-z.-]*$/) print key, w[i]
	inb = 0; next
}
inb { l = $0; sub(/^\.[A-Z]+ */, "", l); gsub(/\\f[BIRP]/, "", l); gsub(/\\-/, "-", l)
      gsub(/["|\[\]]/, " ", l); buf = buf " " l }' "$page" > "$tmp/syn"
for c in top trace check help; do
	awk -v k="$c" '$1 == k { print $2 }' "$tmp/syn" | canon_all > "$tmp/s.$c"
	case $c in
	help) printf '%s\n' --help --version ;;
	*) { man_opts "$c"; echo -v; } ;;
	esac | canon_all > "$tmp/o.$c"
	diff "$tmp/s.$c" "$tmp/o.$c" | grep '^[<>]' |
		sed "s/^</$c: in the SYNOPSIS, not in OPTIONS:/; s/^>/$c: in OPTIONS, not in the SYNOPSIS:/" >> "$tmp/err"
done
check "the SYNOPSIS of each command lists its options"

# What the parser accepts per command. `ucounttop [CMD] OPT [VALUE] --help`
# exits 0 when CMD takes OPT (the parse reaches --help), 2 when it does not
# (the message says where OPT applies). VALUE: a valid sample per metavar.
sample() {
	case $1 in
	secs|count|inum|pid) echo 1 ;;
	n) echo 16 ;;			# --max-entries >= 16, --ringbuf-kb a power of two
	uid) echo 0 ;;
	user) echo root ;;
	type) echo nproc ;;
	key) echo uid ;;
	id) echo 3f2a ;;		# --container: a prefix of a container id
	file) echo "$tmp/never-written" ;;
	dir) echo "$tmp/never-pinned" ;;
	addr:port) echo 127.0.0.1:9 ;;	# parsed, never bound: --help stops first
	*) return 1 ;;
	esac
}
probes=0
for c in "" top trace check; do
	key=${c:-top}
	# shellcheck disable=SC2086 # no command: no word
	uct $c --help > /dev/null 2>> "$tmp/err" || echo "'ucounttop $c --help' exited $?" >> "$tmp/err"
	man_opts "$key" all > "$tmp/want"
	while read -r _ s l mv; do
		for o in $s $l; do
			[ "$o" = - ] && continue
			args=("$o")
			if [ "$mv" != - ]; then
				v=$(sample "$mv") || { echo "no sample value for metavar '$mv' of $o" >> "$tmp/err"; continue; }
				args+=("$v")
			fi
			rc=0
			# shellcheck disable=SC2086 # no command: no word
			uct $c "${args[@]}" --help > /dev/null 2> "$tmp/stderr" || rc=$?
			probes=$((probes + 1))
			if grep -qx -- "$o" "$tmp/want"; then
				[ "$rc" = 0 ] || { echo "'ucounttop $c ${args[*]} --help' exited $rc, but the page lists $o for ${key}:"; cat "$tmp/stderr"; } >> "$tmp/err"
			elif [ "$rc" != 2 ] || ! grep -q 'applies to' "$tmp/stderr"; then
				{ echo "'ucounttop $c ${args[*]} --help' exited $rc, but the page does not list $o for ${key}:"; cat "$tmp/stderr"; } >> "$tmp/err"
			fi
		done
	done < "$tmp/man.opts"
done
rc=0
uct nosuchcommand --help > /dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || echo "'ucounttop nosuchcommand --help' exited $rc, not 2" >> "$tmp/err"
check "each command accepts exactly the options the page lists for it ($probes parses)"

# ---- (c) the completion -----------------------------------------------------
bash -n "$comp" 2> "$tmp/err"
check "bash -n cli/completion/ucounttop.bash"
if command -v shellcheck > /dev/null; then
	shellcheck -s bash "$comp" > "$tmp/err" 2>&1
	check "shellcheck cli/completion/ucounttop.bash"
fi

# complete_words WORD...: what the completion offers for the last WORD
complete_words() {
	bash --norc --noprofile -c '
		. "$1" || exit 1
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_ucounttop || exit 1
		[ ${#COMPREPLY[@]} -eq 0 ] || printf "%s\n" "${COMPREPLY[@]}"' _ "$comp" "$@"
}
# offers WANT WORD...: does the completion offer WANT for the last WORD?
# (through a file: grep -q in a pipe would stop the writer with SIGPIPE)
offers() {
	local want=$1
	shift
	complete_words "$@" > "$tmp/offered" 2>> "$tmp/err"
	grep -qx -- "$want" "$tmp/offered"
}
for c in "" top trace check; do
	key=${c:-top}
	# shellcheck disable=SC2086 # no command: no word
	complete_words ucounttop $c - 2>> "$tmp/err" | grep -vx -- -- | sort -u > "$tmp/c.$key"
	man_opts "$key" all > "$tmp/want"
	diff "$tmp/c.$key" "$tmp/want" | grep '^[<>]' |
		sed "s/^</${c:-(no command)}: offered, not in the page:/; s/^>/${c:-(no command)}: in the page, not offered:/" >> "$tmp/err"
done
check "the completion offers each command exactly the options the page lists for it"
cat "$tmp"/c.* | sort -u > "$tmp/c.any"
comm -23 "$tmp/help.opts" "$tmp/c.any" | sed 's/^/in --help, never offered: /' > "$tmp/err"
check "the completion offers every option --help lists"

complete_words ucounttop "" 2>&1 | sort > "$tmp/got"
printf '%s\n' check top trace > "$tmp/want"
diff "$tmp/got" "$tmp/want" | sed 's/^/commands: /' > "$tmp/err"
for c in check top trace; do
	rc=0
	uct "$c" --help > /dev/null 2>&1 || rc=$?
	[ "$rc" = 0 ] || echo "'ucounttop $c --help' exited $rc" >> "$tmp/err"
done
sed -n '/^\.SH COMMANDS/,/^\.SH OPTIONS/p' "$page" > "$tmp/commands"
for c in top trace check; do
	grep -qE "^\.B(R)? .*\b$c\b" "$tmp/commands" || echo "COMMANDS does not describe $c" >> "$tmp/err"
done
check "the completion offers the commands (trace, check, top) the page describes"

# option values: what --help lists for -t and -s
sed -n '/^  -t, --type TYPE/{n;p}' "$tmp/help" | tr -d '(),' | xargs -n1 | sort > "$tmp/types"
sed -n 's/^  -s, --sort KEY *//p' "$tmp/help" | tr -d ',' | xargs -n1 | sort > "$tmp/keys"
[ "$(wc -l < "$tmp/types")" = 4 ] || echo "cannot read the types from --help" >> "$tmp/err"
[ "$(wc -l < "$tmp/keys")" = 7 ] || echo "cannot read the sort keys from --help" >> "$tmp/err"
{
	complete_words ucounttop -t "" | sort | diff - "$tmp/types" | sed 's/^/-t: /'
	complete_words ucounttop trace --type "" | sort | diff - "$tmp/types" | sed 's/^/trace --type: /'
	complete_words ucounttop -s "" | sort | diff - "$tmp/keys" | sed 's/^/-s: /'
	offers denials ucounttop --sort=de || echo "--sort=de does not complete to denials"
	cat "$tmp/types" "$tmp/keys" | while read -r v; do
		grep -qE "^\.BR? $v( |$)" "$page" || echo "the page does not name the value $v"
	done
} >> "$tmp/err"
check "the completion offers the -t types and -s keys --help and the page list"

mkdir -p "$tmp/files/sub"
: > "$tmp/files/report.json"
offers "$tmp/files/report.json" ucounttop check -o "$tmp/files/rep" ||
	echo "check -o does not complete a file name" >> "$tmp/err"
offers "$tmp/files/sub" ucounttop --pin "$tmp/files/s" ||
	echo "--pin does not complete a directory" >> "$tmp/err"
[ -z "$(complete_words ucounttop --pin "$tmp/files/rep")" ] || echo "--pin offers a file" >> "$tmp/err"
offers bash ucounttop check --json bas || echo "check's CMD does not complete to a command" >> "$tmp/err"
offers bash ucounttop check -o x -- bas || echo "check's CMD after -- does not complete to a command" >> "$tmp/err"
[ -z "$(complete_words ucounttop check -- ls --j)" ] || echo "check offers its own options to CMD" >> "$tmp/err"
[ -z "$(complete_words ucounttop trace -s "")" ] || echo "trace -s (not a trace option) offers sort keys" >> "$tmp/err"
check "the completion completes files for -o, directories for --pin, CMD after check's options"

# ---- (d) exit codes -----------------------------------------------------------
# cli/lib/common.h: the codes before "check only" are everybody's, the rest check's
awk '/check only/ { chk = 1 }
     /^#define UCT_EXIT_[A-Z_]+[ \t]+[0-9]+/ { print (chk ? "check" : "all"), $2, $3 }' \
	"$common_h" > "$tmp/codes"
awk '$1 == "all" { print $3 }' "$tmp/codes" | sort -n > "$tmp/codes.top"
# check reports a missing privilege as kselftest's skip (4), never 3
awk '$2 != "UCT_EXIT_PRIV" { print $3 }' "$tmp/codes" | sort -nu > "$tmp/codes.check"
awk '/^\.SH / { sec = $0; next }
     sec !~ /EXIT STATUS/ { next }
     /^\.SS / { ss = $0 ~ /check/ && $0 !~ /live view/ ? "check" : "top"; next }
     /^\.TP/ { tp = 1; next }
     tp { tp = 0; if ($1 == ".B" && $2 ~ /^[0-9]+$/) print ss, $2; else print ss, "bad-tag:" $0 }' \
	"$page" > "$tmp/man.codes"
if [ "$(wc -l < "$tmp/codes.check")" -lt 5 ]; then
	echo "cannot read the UCT_EXIT_* constants of $common_h" > "$tmp/err"
fi
for k in top check; do
	awk -v k="$k" '$1 == k { print $2 }' "$tmp/man.codes" | sort -n | diff - "$tmp/codes.$k" |
		grep '^[<>]' | sed "s/^</$k: in EXIT STATUS, no such constant:/; s/^>/$k: constant not in EXIT STATUS:/" >> "$tmp/err"
done
while read -r _ name _; do
	grep -rqw --include='*.c' "$name" "$UCT_ROOT"/cli || echo "$name is defined but no cli/ source returns it" >> "$tmp/err"
done < "$tmp/codes"
check "EXIT STATUS lists the codes cli/lib/common.h defines: live view and trace $(paste -sd, "$tmp/codes.top"), check $(paste -sd, "$tmp/codes.check")"

# --help says the same (its "Exit status:" and check's "Exit:" paragraphs)
codes_in() { grep -oE '(: |, )[0-9]+ [a-zA-Z]' | grep -oE '[0-9]+' | sort -n; }
sed -n '/^Exit status:/,/^$/p' "$tmp/help" | codes_in | diff - "$tmp/codes.top" | sed 's/^/live view: /' > "$tmp/err"
sed -n '/Exit: 0/,/^$/p' "$tmp/help" | codes_in | diff - "$tmp/codes.check" | sed 's/^/check: /' >> "$tmp/err"
check "--help lists the same exit codes"

finish
