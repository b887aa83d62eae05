#!/usr/bin/env bash
# One command: set up and run every check: lint, types, the whole test suite (browser tier included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
.venv/bin/ruff check scorekeeper tests bench
.venv/bin/ruff format --check scorekeeper tests bench
.venv/bin/mypy scorekeeper
exec .venv/bin/pytest "$@"
