#!/usr/bin/env bash
# The main job: set up, build dist/deid.html, and open it in a browser when one is available.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/python build.py
page="file://$(pwd)/dist/deid.html"
if command -v xdg-open >/dev/null 2>&1 && [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  xdg-open "$page" >/dev/null 2>&1 &
else
  echo "Open $page in Chromium, Firefox or Safari (no display here to open it for you)."
fi
