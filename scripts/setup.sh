#!/usr/bin/env bash
# Set up everything scorekeeper needs on a fresh Debian machine: system packages (when root),
# a virtualenv in .venv with the app and its test tools, and compiled translations.
# Usage: bash scripts/setup.sh [--test]   (--test adds what the test suite needs: Chromium,
# poppler, Caddy for the reverse-proxy test, PostgreSQL for the store tests on its engine,
# podman, podman-compose, runc and debootstrap to run deploy/compose.hosted.yaml for real, and
# docker-compose to read it as Docker Compose does)
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

apt_pkgs=(libharfbuzz-subset0 libpango-1.0-0 libpangoft2-1.0-0 fonts-dejavu-core)
# chromium-headless-shell drives the browser tier (about half the whole browser's CPU over it);
# chromium stays for anyone who runs the app's pages by hand.
[ $want_test = 1 ] && apt_pkgs+=(poppler-utils chromium chromium-headless-shell e2fsprogs caddy)
[ $want_test = 1 ] && apt_pkgs+=(goaccess postgresql systemd)
[ $want_test = 1 ] && apt_pkgs+=(podman podman-compose runc debootstrap docker-compose)
# axe-core (the accessibility checks of the browser tier) comes from the npm registry.
[ $want_test = 1 ] && ! command -v npm >/dev/null 2>&1 && apt_pkgs+=(npm)
missing=()
for p in "${apt_pkgs[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Please install: ${missing[*]} (sudo apt-get install ${missing[*]})" >&2
  fi
fi

[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null
if [ $want_test = 1 ]; then
  .venv/bin/pip install -q -c constraints.txt -e '.[test]'
else
  .venv/bin/pip install -q -c constraints.txt -e .
fi
if [ $want_test = 1 ] && [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ]; then
  npm install --silent --prefix .cache/axe axe-core@4.14.1 --no-audit --no-fund >/dev/null
fi
if ls scorekeeper/translations/*/LC_MESSAGES/messages.po >/dev/null 2>&1; then
  .venv/bin/pybabel compile -d scorekeeper/translations >/dev/null
fi
# What scripts/serve.sh compares to know whether to set up again.
cat pyproject.toml constraints.txt | sha256sum | cut -d' ' -f1 > .venv/.setup-stamp
