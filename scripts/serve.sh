#!/usr/bin/env bash
# Install gammon with the web site (and the bot) into .venv and start the site.
# It runs on SQLite (./gammon.db) with no other service and prints its address.
# Settings come from GAMMON_* variables or flags, e.g.
#   scripts/serve.sh --port 8080
#   GAMMON_DATABASE_URL=postgresql://user@localhost/gammon scripts/serve.sh
# `.venv/bin/gammon serve --help` lists every setting.
set -euo pipefail
cd "$(dirname "$0")/.."
echo "serve: checking the installation in .venv (scripts/bootstrap.sh)"
if [[ "${GAMMON_DATABASE_URL:-}" == postgres* ]]; then
    scripts/bootstrap.sh server,bot,postgres
else
    scripts/bootstrap.sh server,bot
fi
echo "serve: starting the site (gammon serve $*); it prints its address when ready"
exec .venv/bin/gammon serve "$@"
