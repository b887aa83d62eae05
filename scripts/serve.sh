#!/usr/bin/env bash
# One command: set up and run the app on its default SQLite file (instance/scorekeeper.sqlite).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/scorekeeper serve "$@"
