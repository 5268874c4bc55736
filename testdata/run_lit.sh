#!/bin/bash
# Runs lit over one folder of golden tests with the given tools on PATH.
# usage: run_lit.sh FOLDER TOOL_BINARY...
set -euo pipefail
folder="$1"
shift
tool_dir="${TEST_TMPDIR:-$(mktemp -d)}/bin"
mkdir -p "$tool_dir"
for tool in "$@"; do
  ln -sf "$PWD/$tool" "$tool_dir/$(basename "$tool")"
done
export TESSEL_TOOL_DIR="$tool_dir"
export TESSEL_TARGETS_DIR="$PWD/targets"
# A sharded target (lit_test's shard_count): lit runs every
# TEST_TOTAL_SHARDS-th test of the suite from this shard's. The order is
# fixed (lexical) so that every shard numbers the tests alike.
shard=()
if [ -n "${TEST_TOTAL_SHARDS:-}" ]; then
  touch "$TEST_SHARD_STATUS_FILE"
  shard=(--num-shards "$TEST_TOTAL_SHARDS"
         --run-shard "$((TEST_SHARD_INDEX + 1))")
fi
exec /usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv \
  --order=lexical ${shard[@]+"${shard[@]}"} "testdata/$folder"
