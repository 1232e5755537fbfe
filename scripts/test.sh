#!/usr/bin/env bash
# Install gammon with its dev tools into .venv, then run every check:
# ruff (format + lint), mypy --strict, and the whole pytest suite.
# Extra arguments go to pytest, e.g. scripts/test.sh -k movegen
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh dev
export PATH="$PWD/.venv/bin:$PATH"
echo "== ruff format --check"; ruff format --check src tests benchmarks
echo "== ruff check";          ruff check src tests benchmarks
echo "== mypy --strict";       mypy --strict src
echo "== pytest"
set +e
pytest -n "${GAMMON_TEST_WORKERS:-2}" "$@"
rc=$?
set -e
if [ "$rc" = 5 ]; then
    echo "pytest collected no tests" >&2
    exit 1
fi
exit "$rc"
