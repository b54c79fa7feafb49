#!/usr/bin/env bash
# Desktop smoke test: the real app starts in a real window under Xvfb, stays
# up, and draws its UI (a screenshot with many colours, not a blank window).
# It does not click: the browser e2e (ui/e2e/chat.mjs) drives the same UI.
set -euo pipefail
bin=${1:?usage: desktop-smoke.sh path/to/braid-desktop}
out=${SMOKE_OUT:-ui/e2e/out}
mkdir -p "$out"
data=$(mktemp -d)
display=:$(( 90 + RANDOM % 9 ))
Xvfb "$display" -screen 0 1280x800x24 >/dev/null 2>&1 &
xvfb=$!
trap 'kill $app $xvfb 2>/dev/null || true; rm -rf "$data"' EXIT
sleep 1
DISPLAY=$display XDG_DATA_HOME=$data HOME=$data "$bin" >"$data/app.log" 2>&1 &
app=$!
for _ in $(seq 1 40); do
  sleep 0.25
  kill -0 "$app" 2>/dev/null || { echo "desktop-smoke: the app exited:"; cat "$data/app.log"; exit 1; }
done
DISPLAY=$display import -window root "$out/desktop.png"
colours=$(identify -format '%k' "$out/desktop.png")
kill -0 "$app" 2>/dev/null || { echo "desktop-smoke: the app died"; exit 1; }
if [ "$colours" -lt 20 ]; then
  echo "desktop-smoke: the window looks blank ($colours colours); log:"; cat "$data/app.log"
  exit 1
fi
[ -s "$data/dev.braid.app/braid.db" ] || { echo "desktop-smoke: no database in the app data dir"; exit 1; }
echo "desktop-smoke: window up, UI drawn ($colours colours), database in the app data dir; screenshot $out/desktop.png"
