#!/usr/bin/env bash
# Set up a fresh Debian machine: a venv .venv with the pinned Python packages
# (requirements-test.lock) and the pinned npm packages of package-lock.json (`npm ci`, for
# build.py; --no-npm skips them, as the default test run does); with --browser Debian's chromium
# for the page tests (and firefox-esr, webkit2gtk-driver and xvfb for the Firefox and WebKit page
# tests); with --spark Java 17 and requirements-spark.lock (pyspark) for the Spark test; with --train a second venv .venv-train with the training stack
# (requirements-train.lock: torch 2.13.0 CPU, transformers, onnx) for the training tests.
# Idempotent: a second run only checks.
# Every step prints what it is doing on standard error.
# A missing tool (python3 >= 3.11 with venv, node/npm, chromium) is installed with apt-get when
# this runs as root or with sudo; otherwise the script stops and says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

die() { echo "setup.sh: $*" >&2; exit 1; }
say() { echo "setup.sh: $*" >&2; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null 2>&1 && SUDO="sudo"
fi
APT_UPDATED=""
apt_install() {  # apt_install PACKAGE...: install Debian packages, or say how and stop
  if ! command -v apt-get >/dev/null 2>&1; then
    die "missing: $* (no apt-get here; install them with your system's package manager)"
  fi
  if [ "$(id -u)" -ne 0 ] && [ -z "$SUDO" ]; then
    die "missing: $* (run as root, or: sudo apt-get install -y $*)"
  fi
  echo "setup.sh: apt-get install $*" >&2
  if [ -z "$APT_UPDATED" ]; then
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq || die "apt-get update failed"
    APT_UPDATED=1
  fi
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null \
    || die "apt-get install $* failed"
}

# Python >= 3.11 with the venv module (Debian: python3 + python3-venv).
command -v python3 >/dev/null 2>&1 || apt_install python3 python3-venv
python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
  || die "python3 is $(python3 -V 2>&1); 3.11 or newer is needed"
say "python3 is $(python3 -V 2>&1 | cut -d' ' -f2)"
if [ ! -x .venv/bin/pip ]; then
  say "creating the venv .venv"
  rm -rf .venv  # a venv left half-made (no ensurepip) would otherwise be kept forever
  if ! out=$(python3 -m venv .venv 2>&1); then
    rm -rf .venv
    echo "$out" >&2
    apt_install python3-venv  # Debian's python3 has no venv/ensurepip without it
    python3 -m venv .venv || die "python3 -m venv failed"
  fi
fi
say "installing the pinned test packages into .venv (requirements-test.lock; quick when present)"
.venv/bin/pip install -q --disable-pip-version-check -r requirements-test.lock \
  || die "pip could not install requirements-test.lock into .venv"
say "installing deid itself into .venv (pip install -e .)"
.venv/bin/pip install -q --disable-pip-version-check --no-deps -e . \
  || die "pip install -e . failed"

npm_packages() {  # node + npm for the page build (Pyodide core and esbuild, package-lock.json)
  command -v npm >/dev/null 2>&1 || apt_install nodejs npm
  node -e 'process.exit(Number(process.versions.node.split(".")[0]) < 18 ? 1 : 0)' \
    || die "node is $(node --version); 18 or newer is needed (package-lock.json engines)"
  # npm ci writes node_modules/.package-lock.json last: if it is missing or older than the lock
  # file, the install is absent, stale or was interrupted.
  if [ ! -f node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    say "installing the pinned npm packages (npm ci)"
    npm ci --no-audit --no-fund --loglevel=error || die "npm ci failed (see the npm error above)"
  else
    say "npm packages present (node_modules)"
  fi
}

case " $* " in
  *" --no-npm "*) say "skipping the npm packages (--no-npm: no page build in this run)" ;;
  *) npm_packages ;;
esac

for opt in "$@"; do
  case "$opt" in
    --no-npm) ;;
    --browser)
      say "checking Debian's chromium for the page tests"
      if [ ! -x /usr/bin/chromium ]; then
        apt_install chromium
        [ -x /usr/bin/chromium ] || die "apt-get installed chromium but /usr/bin/chromium is not there"
      fi
      say "checking Debian's firefox-esr, WebKitGTK's driver and Xvfb for the other browsers' page tests"
      missing=()
      command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
      command -v WebKitWebDriver >/dev/null 2>&1 || missing+=(webkit2gtk-driver)
      command -v Xvfb >/dev/null 2>&1 || missing+=(xvfb)
      [ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}" ;;
    --spark)
      say "checking Java 17 and pyspark for the Spark test (requirements-spark.lock; large on first run)"
      command -v java >/dev/null 2>&1 || apt_install openjdk-17-jre-headless
      .venv/bin/pip install -q --disable-pip-version-check -r requirements-spark.lock \
        || die "pip could not install requirements-spark.lock into .venv" ;;
    --train)
      say "setting up .venv-train with the training stack (requirements-train.lock: torch CPU; large on first run)"
      if [ ! -x .venv-train/bin/pip ]; then
        rm -rf .venv-train
        python3 -m venv .venv-train || die "python3 -m venv .venv-train failed"
      fi
      .venv-train/bin/pip install -q --disable-pip-version-check -r requirements-train.lock \
        || die "pip could not install requirements-train.lock into .venv-train"
      .venv-train/bin/pip install -q --disable-pip-version-check --no-deps -e . \
        || die "pip install -e . into .venv-train failed" ;;
    *) die "unknown option $opt (expected --browser, --spark, --train or --no-npm)" ;;
  esac
done
say "done"
