#!/usr/bin/env bash
# Run every test on a fresh machine: set up (venv, npm ci, Debian chromium), fetch the pinned
# sources of lists/ into .cache/lists-src (scripts/build_lists.py, writing into a scratch folder;
# tests/test_lists.py then checks that lists/ regenerates byte for byte), build the page, pytest.
# Arguments go to pytest (e.g. `bash scripts/test.sh -x tests/test_dates.py`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
.venv/bin/python scripts/build_lists.py --out "$scratch" >/dev/null \
  || { echo "test.sh: scripts/build_lists.py could not fetch or derive the list sources" >&2; exit 1; }
.venv/bin/python build.py
.venv/bin/python -m pytest -q "$@"
