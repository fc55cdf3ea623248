#!/bin/bash
# make screenshot: docs/ucounttop.png, the picture README shows. `make run`
# in a tmux pane as a person would run it; once the demo's shared row is
# split by container and its refusals counted, the pane as the terminal
# draws it (capture-pane -e: text and attributes), written as HTML in a
# terminal's colours and photographed by Debian's Chromium, headless.
# Nothing is drawn by hand: a picture of another screen needs only
# another run. Bounded: the boot and the split within BOOT_SECS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

OUT=${1:-$UCT_ROOT/docs/ucounttop.png}
BOOT_SECS=${BOOT_SECS:-600}
COLS=150 ROWS=18
sock=uct-screenshot-$$
tmp=$(mktemp -d)
tm() { tmux -L "$sock" "$@"; }
cleanup() {
	tm kill-server 2> /dev/null || true
	rm -rf "$tmp"
}
trap cleanup EXIT

command -v chromium > /dev/null || die "chromium missing (guest/deps.sh --screenshot installs it)"

tm -f /dev/null new-session -d -s run -x $COLS -y $ROWS \
	"cd '$UCT_ROOT' && make -s run 2> '$tmp/stderr'; echo \$? > '$tmp/rc'; sleep 600"
# the demo's story on one screen: uid 2000's row split between its two
# containers with the worker's refusals, and both user-namespaced
# containers' own rows refused
split='uid 2000 .* in api 2, shop/worker-7d4b9/worker 1 \(refused [1-9][0-9]*\)$'
for ((i = 0; i < BOOT_SECS; i++)); do
	tm capture-pane -p -t run > "$tmp/screen" 2> /dev/null || true
	grep -Eq "$split" "$tmp/screen" &&
		[ "$(grep -Ec 'uid 1000 .* [1-9][0-9]* D *$' "$tmp/screen")" = 2 ] && break
	[ -f "$tmp/rc" ] && die "make run ended before the demo's screen (stderr: $(cat "$tmp/stderr"))"
	sleep 1
done
[ "$i" -lt "$BOOT_SECS" ] || die "no split row on the screen within $BOOT_SECS s"
tm capture-pane -e -p -t run > "$tmp/screen.ansi"
tm send-keys -t run q

# the pane's lines, SGR attributes as spans (the view uses reverse video
# for its header; colours are mapped too in case it ever uses them)
n=$(python3 - "$tmp/screen.ansi" "$tmp/screen.html" "$COLS" << 'PY'
import html, re, sys

src, dst, cols = sys.argv[1], sys.argv[2], int(sys.argv[3])
lines = open(src, encoding="utf-8", errors="replace").read().split("\n")
while lines and not re.sub(r"\x1b\[[0-9;]*m", "", lines[-1]).strip():
    lines.pop()
palette = ["#1e1e1e", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5"]
FG, BG = "#d4d4d4", "#1e1e1e"
out = []
for line in lines:
    state = {"rev": False, "bold": False, "fg": None, "bg": None}
    parts = re.split(r"(\x1b\[[0-9;]*m)", line)
    row = []
    for p in parts:
        m = re.fullmatch(r"\x1b\[([0-9;]*)m", p)
        if m:
            codes = [int(c) for c in m.group(1).split(";") if c] or [0]
            for c in codes:
                if c == 0:
                    state = {"rev": False, "bold": False, "fg": None, "bg": None}
                elif c == 1:
                    state["bold"] = True
                elif c == 22:
                    state["bold"] = False
                elif c == 7:
                    state["rev"] = True
                elif c == 27:
                    state["rev"] = False
                elif 30 <= c <= 37:
                    state["fg"] = palette[c - 30]
                elif c == 39:
                    state["fg"] = None
                elif 40 <= c <= 47:
                    state["bg"] = palette[c - 40]
                elif c == 49:
                    state["bg"] = None
            continue
        if not p:
            continue
        fg, bg = state["fg"] or FG, state["bg"] or BG
        if state["rev"]:
            fg, bg = bg, fg
        style = f"color:{fg};background:{bg}" + (";font-weight:bold" if state["bold"] else "")
        row.append(f'<span style="{style}">{html.escape(p)}</span>')
    out.append("".join(row))
doc = f"""<!doctype html><meta charset="utf-8"><style>
body {{ margin: 0; background: #3c3c3c; }}
.term {{ display: inline-block; margin: 12px; padding: 10px 14px; background: {BG}; color: {FG};
  border-radius: 6px; font: 14px/1.3 "DejaVu Sans Mono", monospace; white-space: pre; }}
</style><div class="term">{chr(10).join(out)}</div>"""
open(dst, "w", encoding="utf-8").write(doc)
print(len(out))
PY
)
# the window fits the pane's lines: 150 columns of DejaVu Sans Mono at
# 14px are about 1270 px, each line 18.2 px
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
	--window-size=1300,$((n * 19 + 44)) --screenshot="$OUT" "file://$tmp/screen.html" \
	> "$tmp/chromium.log" 2>&1 || die "chromium failed: $(tail -n 3 "$tmp/chromium.log")"
for ((i = 0; i < 120; i++)); do
	[ -f "$tmp/rc" ] && break
	sleep 1
done
echo "screenshot: $OUT"
