#!/usr/bin/env bash
# Install gammon with its dev tools into .venv, then run every check:
# ruff (format + lint), mypy --strict, and the whole pytest suite.
# Extra arguments go to pytest, e.g. scripts/test.sh -k movegen
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh dev
export PATH="$PWD/.venv/bin:$PATH"
# The suite starts hundreds of Python processes (test workers, servers, their worker pools,
# command-line runs): with PYTHONDONTWRITEBYTECODE set (some machines set it) each compiled
# gammon's sources again (0.3-0.5 s of CPU a process). Bytecode goes to __pycache__
# (.gitignore'd), as Python does by default.
unset PYTHONDONTWRITEBYTECODE
echo "== ruff format --check"; ruff format --check src tests benchmarks
echo "== ruff check";          ruff check src tests benchmarks
echo "== mypy --strict";       mypy --strict src
echo "== pytest"
set +e
# --dist loadscope: a module's tests run on one worker, so a module-scoped server (most of
# tests/server, the browser tests that share one) starts once, not once per worker
pytest -n "${GAMMON_TEST_WORKERS:-2}" --dist loadscope "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
    echo "pytest collected no tests" >&2
    exit 1
fi
exit "$rc"
