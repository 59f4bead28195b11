#!/bin/sh
# Scorekeeper's benchmark: see bench/README.md. Arguments go to bench/run.py, e.g.
#   bench/run.sh                          # full run, SQLite then PostgreSQL (~20 minutes)
#   bench/run.sh --database sqlite --duration 5 --growth-rounds 1000   # a quick look
set -eu
cd "$(dirname "$0")/.."
if ! command -v wrk >/dev/null 2>&1; then
    echo "bench: wrk is not installed; on Debian/Ubuntu: apt-get update && apt-get install -y wrk" >&2
    exit 2
fi
PYTHON="${PYTHON:-.venv/bin/python}"
exec "$PYTHON" bench/run.py "$@"
