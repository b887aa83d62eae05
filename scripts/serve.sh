#!/usr/bin/env bash
# One command: set up (only when needed) and run the app on its default SQLite file
# (instance/scorekeeper.sqlite). Options go to `scorekeeper serve` (--port, --db, --https).
#
# The set-up (scripts/setup.sh: a virtualenv in .venv, the app installed, translations) runs
# only when .venv is missing or pyproject.toml / constraints.txt changed since it last ran
# (their hash is kept in .venv/.setup-stamp): a complete .venv starts with no network.
set -euo pipefail
cd "$(dirname "$0")/.."

stamp=.venv/.setup-stamp
wanted=$(cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1)
if [ ! -x .venv/bin/scorekeeper ] || [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  bash scripts/setup.sh
fi
# Translations edited since the last set-up: compiled again (no network needed).
for po in scorekeeper/translations/*/LC_MESSAGES/messages.po; do
  [ -e "$po" ] || continue
  if [ ! -e "${po%.po}.mo" ] || [ "$po" -nt "${po%.po}.mo" ]; then
    .venv/bin/pybabel compile -d scorekeeper/translations >/dev/null
    break
  fi
done
exec .venv/bin/scorekeeper serve "$@"
