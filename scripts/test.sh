#!/usr/bin/env bash
# One command: set up and run every check: lint, types, the whole test suite (browser tier included).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --test
.venv/bin/ruff check scorekeeper tests bench
.venv/bin/ruff format --check scorekeeper tests bench
.venv/bin/mypy scorekeeper
# Three workers on two cores: a third of the suite's time is spent waiting (servers starting,
# a browser drawing, a database restarting), so a third worker fills it. Each worker has its
# own Chromium, served app and PostgreSQL (session fixtures); worksteal evens out the long tests.
exec .venv/bin/pytest -n "${TEST_WORKERS:-3}" --dist worksteal "$@"
