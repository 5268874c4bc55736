#!/bin/bash
# Differential testing of the whole pipeline on random kernels
# (scripts/random_kernel.py): each must pass scripts/check-kernel.sh.
#   fuzz-pipeline.sh FIRST_SEED COUNT [WORK_DIR]
# Prints one line per failing seed and a closing "N passed, N failed".
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
first="$1" count="$2"
work="${3:-$(mktemp -d)}"
mkdir -p "$work"
passed=0 failed=0
for ((seed = first; seed < first + count; seed++)); do
  kernel="$work/random$seed.tk"
  /usr/bin/python3 "$here/random_kernel.py" "$seed" > "$kernel"
  if "$here/check-kernel.sh" "$kernel" --seed "$seed" --work "$work/random$seed" \
      > "$work/random$seed.log" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "seed $seed failed: $(grep -m1 'error' "$work/random$seed.log")"
  fi
done
echo "fuzz-pipeline: $passed passed, $failed failed (logs in $work)"
[ "$failed" -eq 0 ]
