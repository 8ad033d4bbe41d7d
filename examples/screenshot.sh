#!/usr/bin/env bash
# The README's picture of the viewer: the example game (demo-setup.wlog) imported into a
# fresh store, written as a page by `warscribe view`, photographed by headless Chromium.
#   PATH="$PWD/.venv/bin:$PATH" examples/screenshot.sh docs/viewer.png
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="$(realpath -m "${1:-viewer.png}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
warscribe --store "$work/demo.db" import "$here/demo-setup.wlog" >/dev/null
warscribe --store "$work/demo.db" view -o "$work/demo.html"
"${CHROMIUM:-chromium}" --headless --no-sandbox --disable-gpu --disable-background-networking \
  --disable-component-update --no-first-run --hide-scrollbars --window-size=1400,900 \
  --virtual-time-budget=5000 --screenshot="$work/shot.png" "file://$work/demo.html" 2>/dev/null
mv "$work/shot.png" "$out"
echo "wrote $out"
