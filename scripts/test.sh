#!/usr/bin/env bash
# One command: set up and run every check: lint, types, the whole test suite (browser tier included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
.venv/bin/ruff check scorekeeper tests bench
.venv/bin/ruff format --check scorekeeper tests bench
.venv/bin/mypy scorekeeper/rules scorekeeper/games scorekeeper/kept.py scorekeeper/gamefile.py scorekeeper/report.py scorekeeper/company scorekeeper/tournament/file.py scorekeeper/tournament/text.py scorekeeper/tournament/sample.py scorekeeper/confirmations.py
exec .venv/bin/pytest "$@"
