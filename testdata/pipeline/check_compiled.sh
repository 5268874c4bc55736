#!/bin/bash
# Checks a compiled kernel against the interpreter on seeded inputs.
# usage: check_compiled.sh RUN_SIM MODULE.tir KERNEL_BINARY
set -euo pipefail
run_sim="$1" module="$2" kernel="$3"
work="${TEST_TMPDIR:-$(mktemp -d)}"
"$run_sim" "$module" --seed 3 --outputs "$work/reference"
"$kernel" --inputs "$work/reference" --outputs "$work/compiled"
"$run_sim" "$module" --inputs "$work/reference" --expect "$work/compiled"
