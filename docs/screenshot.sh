#!/bin/sh
# Captures the live designer in a real terminal (tmux) and renders the
# capture, colours included, to docs/designer.png with headless Chromium.
#   cargo build --release && sh docs/screenshot.sh
# Needs tmux, python3 and chromium.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'tmux kill-session -t fnn-shot 2>/dev/null || true; rm -rf "$work"' EXIT
tmux new-session -d -s fnn-shot -x 132 -y 42 \
  "cd $work && HOME=$work XDG_DATA_HOME=$work/data XDG_CONFIG_HOME=$work/cfg TERM=xterm-256color $root/target/release/fnn-tui"
sleep "${WAIT:-1.5}"
tmux capture-pane -t fnn-shot -e -p > "$work/screen.ansi"
python3 - "$work/screen.ansi" "$work/screen.html" <<'PY'
import html, re, sys
BASE = ["#000000","#cd3131","#0dbc79","#e5e510","#2472c8","#bc3fbc","#11a8cd","#e5e5e5",
        "#666666","#f14c4c","#23d18b","#f5f543","#3b8eea","#d670d6","#29b8db","#ffffff"]
def c256(n):
    if n < 16: return BASE[n]
    if n < 232:
        n -= 16; v = [0, 95, 135, 175, 215, 255]
        return "#%02x%02x%02x" % (v[n // 36], v[n // 6 % 6], v[n % 6])
    g = 8 + (n - 232) * 10; return "#%02x%02x%02x" % (g, g, g)
def sgr(params, st):
    p = [int(x) if x else 0 for x in params.split(";")] if params else [0]
    i = 0
    while i < len(p):
        x = p[i]
        if x == 0: st.clear()
        elif x == 1: st["b"] = True
        elif x == 22: st.pop("b", None)
        elif x == 7: st["rev"] = True
        elif x == 27: st.pop("rev", None)
        elif 30 <= x <= 37: st["fg"] = BASE[x - 30]
        elif 90 <= x <= 97: st["fg"] = BASE[x - 82]
        elif 40 <= x <= 47: st["bg"] = BASE[x - 40]
        elif 100 <= x <= 107: st["bg"] = BASE[x - 92]
        elif x == 39: st.pop("fg", None)
        elif x == 49: st.pop("bg", None)
        elif x in (38, 48) and i + 1 < len(p):
            key = "fg" if x == 38 else "bg"
            if p[i + 1] == 5: st[key] = c256(p[i + 2]); i += 2
            elif p[i + 1] == 2: st[key] = "#%02x%02x%02x" % tuple(p[i + 2:i + 5]); i += 4
        i += 1
text = open(sys.argv[1], encoding="utf-8").read()
out, st = [], {}
for part in re.split(r"(\x1b\[[0-9;]*m)", text):
    m = re.fullmatch(r"\x1b\[([0-9;]*)m", part)
    if m: sgr(m.group(1), st); continue
    if not part: continue
    fg, bg = st.get("fg", "#d4d4d4"), st.get("bg", "#1e1e1e")
    if st.get("rev"): fg, bg = bg, fg
    style = f"color:{fg};background:{bg}" + (";font-weight:bold" if st.get("b") else "")
    # Fonts draw Braille (the chart) wider than a cell: pin it to one.
    body = re.sub("([\u2800-\u28ff])", r'<span style="display:inline-block;width:1ch">\1</span>', html.escape(part))
    out.append(f'<span style="{style}">{body}</span>')
page = ('<html><body style="margin:0;background:#1e1e1e"><pre style="margin:8px;'
        'font:14px/1.2 \'DejaVu Sans Mono\',monospace;color:#d4d4d4">' + "".join(out) + "</pre></body></html>")
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1125,722 \
  --screenshot="$root/docs/designer.png" "file://$work/screen.html" 2>/dev/null
echo "wrote $root/docs/designer.png"
