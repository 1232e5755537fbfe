#!/usr/bin/env bash
# Create .venv (once) and install gammon with the given extras into it.
# Re-installs only when pyproject.toml or the extras change.
# With the dev extras and npm on the machine, also installs the browser code's dev tools
# (TypeScript's checker, package-lock.json) into node_modules when missing or stale.
# Usage: scripts/bootstrap.sh [EXTRAS]   e.g. scripts/bootstrap.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "gammon needs Python 3.11 or newer as '$python' (set PYTHON=...)" >&2
    exit 1
fi
if [ ! -x .venv/bin/python ]; then
    if ! "$python" -m venv .venv; then
        echo "could not create a virtualenv: on Debian run 'apt-get install python3-venv'" >&2
        exit 1
    fi
fi
spec="."
[ -n "$extras" ] && spec=".[$extras]"
stamp=".venv/.gammon-installed"
want="$(cat pyproject.toml | sha256sum | cut -d' ' -f1) $extras"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    # pip is quiet: say what it is doing (the first install takes a few minutes)
    echo "bootstrap: upgrading pip in .venv"
    .venv/bin/python -m pip install --quiet --upgrade pip
    echo "bootstrap: installing gammon${extras:+ with $extras} into .venv (pip: the first time takes a few minutes)"
    start=$SECONDS
    .venv/bin/python -m pip install --quiet -e "$spec"
    echo "bootstrap: installed in $((SECONDS - start)) s"
    echo "$want" > "$stamp"
fi
if [ "$extras" = dev ]; then
    if ! command -v npm >/dev/null 2>&1; then
        echo "npm not found: the JavaScript checks (tests/js) will be skipped"
    else
        js_stamp="node_modules/.gammon-installed"
        js_want="$(sha256sum package-lock.json | cut -d' ' -f1)"
        if [ ! -f "$js_stamp" ] || [ "$(cat "$js_stamp")" != "$js_want" ]; then
            echo "npm ci --no-audit --no-fund (node_modules missing or older than package-lock.json)"
            npm ci --no-audit --no-fund
            echo "$js_want" > "$js_stamp"
        fi
    fi
fi
