#!/usr/bin/env bash
# The long fuzz run (issue 22): FUZZ_EXAMPLES requests through every form field of every
# route, and FUZZ_EXAMPLES / 3 runs of every CLI command that reads a file, with the hostile
# corpus of tests/fuzzing.py. CI runs the same tests with a few hundred.
#   bash bench/fuzz.sh            # 10,000
#   FUZZ_EXAMPLES=50000 bash bench/fuzz.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export FUZZ_EXAMPLES="${FUZZ_EXAMPLES:-10000}"
exec .venv/bin/pytest -q -s -p no:cacheprovider tests/attacks/test_fuzz_web.py tests/attacks/test_fuzz_cli.py "$@"
