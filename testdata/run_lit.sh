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
exec /usr/bin/python3 /usr/lib/llvm-14/build/utils/lit/lit.py -sv \
  "testdata/$folder"
