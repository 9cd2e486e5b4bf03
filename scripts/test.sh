#!/usr/bin/env bash
# Run every test on a fresh machine: set up (venv, npm ci, Debian chromium), fetch the pinned
# sources of lists/ into .cache/lists-src (scripts/build_lists.py, writing into a scratch folder;
# tests/test_lists.py then checks that lists/ regenerates byte for byte), build the page, pytest.
# The training smoke test runs first in .venv-train (torch); then every other test in .venv.
# Arguments go to the main pytest run (e.g. `bash scripts/test.sh -x tests/test_dates.py`).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser --train
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
.venv/bin/python scripts/build_lists.py --out "$scratch" >/dev/null \
  || { echo "test.sh: scripts/build_lists.py could not fetch or derive the list sources" >&2; exit 1; }
.venv/bin/python build.py
.venv-train/bin/python -m pytest -q -p no:cacheprovider tests/test_training_smoke.py
.venv/bin/python -m pytest -q --ignore=tests/test_training_smoke.py "$@"
