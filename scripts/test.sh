#!/bin/bash
# The whole test suite: unit tests, golden tests and semantic tests.
#   scripts/test.sh [BAZEL TEST ARGS...]   (default: //...)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(//...)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
scripts/bazel.sh test "${targets[@]}" 2>&1 | tee "$log" || status=$?
# One plain closing line, as CI and people read it.
passed=$(grep -cE '^//.* PASSED' "$log" || true)
failed=$(grep -cE '^//.* (FAILED|TIMEOUT|NO STATUS|INCOMPLETE)' "$log" || true)
echo "bazel test: $passed passed, $failed failed"
exit "$status"
