#!/bin/bash
# Differential testing of saturate on random linear-algebra kernels
# (scripts/random_linalg_kernel.py): each kernel's terms go through saturate
# with the default rules, --target blas and --target pytorch, and run-sim
# must compute the same outputs from every extracted module as from the
# input, on inputs drawn from the seed.
#   fuzz-saturate.sh FIRST_SEED COUNT [WORK_DIR]
# Prints one line per failure and a closing "N passed, N failed" (a kernel
# passes when all three targets do). The tools come from PATH.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
first="$1" count="$2"
work="${3:-$(mktemp -d)}"
mkdir -p "$work"
passed=0 failed=0
for ((seed = first; seed < first + count; seed++)); do
  dir="$work/linalg$seed"
  mkdir -p "$dir"
  /usr/bin/python3 "$here/random_linalg_kernel.py" "$seed" > "$dir/kernel.tk"
  ok=true
  if ! parse --emit=terms "$dir/kernel.tk" -o "$dir/terms.tir" \
      2> "$dir/parse.log"; then
    echo "seed $seed failed: parse: $(head -n 1 "$dir/parse.log")"
    ok=false
  fi
  for target in default blas pytorch; do
    $ok || break
    flags=()
    [ "$target" = default ] || flags=(--target "$target")
    if ! saturate "$dir/terms.tir" "${flags[@]}" -o "$dir/$target.tir" \
        2> "$dir/$target.log"; then
      echo "seed $seed failed: saturate $target: $(head -n 1 "$dir/$target.log")"
      ok=false
    elif ! run-sim "$dir/terms.tir" --seed "$seed" \
        --compare "$dir/$target.tir" >> "$dir/$target.log" 2>&1; then
      echo "seed $seed failed: run-sim finds saturate $target's output" \
        "different: $(grep -m 1 -v ': ok$' "$dir/$target.log")"
      ok=false
    fi
  done
  if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz-saturate: $passed passed, $failed failed (logs in $work)"
[ "$failed" -eq 0 ]
