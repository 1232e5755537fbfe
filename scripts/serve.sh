#!/usr/bin/env bash
# Install gammon into .venv and start it.  Until the web site lands this is an
# interactive demo of the rules library: the opening position and its moves.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/bootstrap.sh
exec .venv/bin/gammon demo "$@"
