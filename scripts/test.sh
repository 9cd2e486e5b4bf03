#!/usr/bin/env bash
# Run every test on a fresh machine: set up (venv, npm ci, Debian chromium), build the page, pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --browser
.venv/bin/python build.py
.venv/bin/python -m pytest -q "$@"
