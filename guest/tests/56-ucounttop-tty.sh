#!/bin/sh
# 56: the full-screen view on a pseudo-terminal (uct-pty): alternate
# screen in and out, keys s (sort), t (type filter), h and ? (help), p and
# space (pause), e and Enter (collapse), j k Down Up (selection), / (search,
# Enter, Esc), q (quit); the frame fits the
# terminal, and 80x24 is used when the terminal reports 0x0 (serial
# consoles).
UCT=${UCT:-/uct/bin/ucounttop}
PTY=${PTY:-/uct/bin/uct-pty}
T=/tmp/t56
mkdir -p $T
n=0
ok() { n=$((n + 1)); echo "ok $n $*"; }
nok() { n=$((n + 1)); echo "not ok $n $*"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else nok "$d"; fi; }
[ -x "$UCT" ] && [ -x "$PTY" ] || exit 4
ESC=$(printf '\033')
# screen text: escape sequences and carriage returns removed
# (each frame starts with cursor-home: a line break for measuring)
plain() { sed -e "s/$ESC\[H/\n/g" -e "s/$ESC\[[0-9;?]*[a-zA-Z]//g" "$1" | tr -d '\r'; }
widest() { plain "$1" | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }'; }
# the last frame drawn (each starts with the summary line)
lastframe() { plain "$1" | awk '/^ucounttop [0-9]/ { f = "" } { f = f $0 "\n" } END { printf "%s", f }'; }

$PTY 100x30 'sthxq' -- $UCT -d 0.5 > $T/keys 2>&1
rc=$?
check "s t h x q: exits 0 (got $rc)" [ $rc -eq 0 ]
check "enters the alternate screen" [ -n "$(grep -F "$ESC[?1049h" $T/keys)" ]
check "leaves it on quit (last thing written)" [ -n "$(tail -c 32 $T/keys | grep -F "$ESC[?1049l")" ]
check "s: sort key nproc" [ -n "$(plain $T/keys | grep 'sort nproc')" ]
check "t: type filter nproc" [ -n "$(plain $T/keys | grep 'type nproc')" ]
check "h: help screen" [ -n "$(plain $T/keys | grep 'Press any key to go back')" ]
check "columns NPROC MSGQUEUE SIGPENDING MEMLOCK DENY FLAG" \
	[ -n "$(plain $T/keys | grep 'NAME.*NPROC.*MSGQUEUE.*SIGPENDING.*MEMLOCK.*DENY.*FLAG')" ]
w=$(widest $T/keys)
check "nothing wider than 100 columns (widest $w)" [ "$w" -le 100 ]

$PTY 0x0 'q' -- $UCT > $T/zero 2>&1
check "0x0 terminal: exits 0" [ $? -eq 0 ]
w=$(widest $T/zero)
check "0x0 terminal: 80x24 assumed (widest line $w)" [ "$w" -le 80 ]

$PTY 80x24 'epq' -- $UCT -d 0.3 > $T/collapse 2>&1
check "e p q: exits 0" [ $? -eq 0 ]
check "e: init namespace collapsed to one line" [ -n "$(plain $T/collapse | grep 'lines 1-1 of 1')" ]
check "e: collapsed marker" [ -n "$(plain $T/collapse | grep '^+ ns [0-9]* L0')" ]
check "p: paused" [ -n "$(plain $T/collapse | grep '\[paused\]')" ]

# the selection (reverse video): j and k, Down and Up move it between the
# initial namespace's line (N) and its first row (U), PgDn to a row further
# down (the last, on a screen this short) and PgUp back; each frame's
# selected line (the column header is reverse video too, and left out),
# repeats folded, must read N U N U N U N
sel() { sed -e "s/$ESC\[7m/\n@SEL@/g" "$1" | sed -n 's/^@SEL@\([^$ESC]*\).*/\1/p' |
	sed -e '/^NAM/d' -e 's/^[-+] ns .*/N/' -e 's/^ *uid .*/U/' | uniq | tr -d '\n'; }
$PTY 100x30 'jk~^}{q' -- $UCT -d 0.3 > $T/move 2>&1
check "j k Down Up PgDn PgUp q: exits 0" [ $? -eq 0 ]
check "j k Down Up PgDn PgUp: the selection moves down, up, down, up, down, up (got '$(sel $T/move)')" \
	[ "$(sel $T/move)" = NUNUNUN ]
# Enter on a row collapses its namespace, space pauses, ? is help
$PTY 80x24 'j| ?xq' -- $UCT -d 0.3 > $T/enter 2>&1
check "j Enter space ? x q: exits 0" [ $? -eq 0 ]
check "Enter on a row: its namespace collapsed to one line" \
	[ -n "$(plain $T/enter | grep 'lines 1-1 of 1')" ]
check "space: paused" [ -n "$(plain $T/enter | grep '\[paused\]')" ]
check "?: help screen" [ -n "$(plain $T/enter | grep 'Press any key to go back')" ]

# / zzz Enter: a search that names nothing; / ini: the initial namespace's
# oldest process (init) matches, then Esc brings back "zzz"; '`' is Esc
# and '|' Enter for uct-pty. (5B searches real container names.)
$PTY 100x30 '/zzz|/ini`q' -- $UCT -d 0.3 > $T/search 2>&1
check "/ zzz Enter / ini Esc q: exits 0" [ $? -eq 0 ]
check "/: the key line shows the text typed" [ -n "$(plain $T/search | grep '^/zzz_ ')" ]
check "Enter: kept; the summary says it matches nothing, no line shows" \
	[ -n "$(plain $T/search | grep 'search "zzz" (no match)')" -a \
	  -n "$(plain $T/search | grep 'lines 0-0 of 0')" ]
check "/ini: init's namespace matches, with all below it" \
	[ -n "$(plain $T/search | grep -A1 '^- ns [0-9]* L0 init .* init(1)$' | grep '^  uid 0 ')" ]
check "Esc: the search before comes back" \
	[ -n "$(lastframe $T/search | grep 'search "zzz" (no match)')" -a \
	  -z "$(lastframe $T/search | grep '^/')" ]
echo "1..$n"
