#!/usr/bin/env bash
# Run the tests on a fresh machine.
#
#   bash scripts/test.sh [PYTEST ARGS]        the default suite: sets up .venv (scripts/setup.sh),
#                                             then pytest without the slow and training tests
#                                             (well under 15 minutes; skip reasons printed)
#   bash scripts/test.sh --all [PYTEST ARGS]  everything, as CI (.ci/run) does: also the npm
#                                             packages and Debian's chromium, the training venv
#                                             .venv-train (torch), a fresh fetch of the pinned
#                                             sources of lists/ into .cache/lists-src (checked by
#                                             tests/test_lists.py), the page build, the training
#                                             tests, and every slow test
#
# Markers: tests/conftest.py and pyproject.toml. Each step says what it is doing.
set -euo pipefail
cd "$(dirname "$0")/.."
say() { echo "test.sh: $*" >&2; }

all=""
if [ "${1:-}" = "--all" ]; then all=1; shift; fi

if [ -z "$all" ]; then
  bash scripts/setup.sh --no-npm
  say "running the default suite (slow and training tests left out; bash scripts/test.sh --all runs them)"
  exec .venv/bin/python -m pytest -q --ignore=tests/test_training_smoke.py "$@"
fi

bash scripts/setup.sh --browser --spark --train
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
say "fetching the pinned sources of lists/ and deriving them into a scratch folder (scripts/build_lists.py)"
.venv/bin/python scripts/build_lists.py --out "$scratch" >/dev/null \
  || { echo "test.sh: scripts/build_lists.py could not fetch or derive the list sources" >&2; exit 1; }
say "building the page (build.py -> dist/deid.html)"
.venv/bin/python build.py
say "training tests in .venv-train (torch)"
.venv-train/bin/python -m pytest -q -p no:cacheprovider -m "" tests/test_training_smoke.py
say "every other test, slow ones included"
.venv/bin/python -m pytest -q -m "" --ignore=tests/test_training_smoke.py "$@"
