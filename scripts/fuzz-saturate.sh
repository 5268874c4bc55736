#!/bin/bash
# Differential testing of saturate on random kernels. For each seed:
#   - a linear-algebra kernel (scripts/random_linalg_kernel.py) goes through
#     parse --emit=terms and saturate with the default rules, --target blas
#     and --target pytorch;
#   - a Glenside kernel (scripts/random_glenside_kernel.py: a matmul, conv2d
#     or perceptron at drawn sizes) goes through saturate --target gemmini,
#     whose e-graph must hold a systolic-array call (whether the output
#     uses it is the cost model's choice: a conv2d of 10 multiplications
#     costs less than the array call and its reshapes);
# and run-sim must compute the same outputs from every extracted module as
# from its input, on inputs drawn from the seed.
#   fuzz-saturate.sh FIRST_SEED COUNT [WORK_DIR]
# Prints one line per failure and a closing "N passed, N failed" (a seed
# passes when all four runs do). The tools come from PATH.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
first="$1" count="$2"
work="${3:-$(mktemp -d)}"
mkdir -p "$work"

# check INPUT TARGET: extracts INPUT with TARGET's rules into $dir/TARGET.tir
# (the e-graph into $dir/TARGET.dot) and compares it with INPUT under
# run-sim on the inputs of $seed.
check() {
  local input="$1" target="$2" flags=(--dot "$dir/$2.dot")
  [ "$target" = default ] || flags+=(--target "$target")
  if ! saturate "$input" "${flags[@]}" -o "$dir/$target.tir" \
      2> "$dir/$target.log"; then
    echo "seed $seed failed: saturate $target: $(head -n 1 "$dir/$target.log")"
    return 1
  fi
  if ! run-sim "$input" --seed "$seed" --compare "$dir/$target.tir" \
      >> "$dir/$target.log" 2>&1; then
    echo "seed $seed failed: run-sim finds saturate $target's output" \
      "different: $(grep -m 1 -v ': ok$' "$dir/$target.log")"
    return 1
  fi
}

passed=0 failed=0
for ((seed = first; seed < first + count; seed++)); do
  dir="$work/seed$seed"
  mkdir -p "$dir"
  /usr/bin/python3 "$here/random_linalg_kernel.py" "$seed" > "$dir/kernel.tk"
  /usr/bin/python3 "$here/random_glenside_kernel.py" "$seed" > "$dir/glenside.tir"
  ok=true
  if ! parse --emit=terms "$dir/kernel.tk" -o "$dir/terms.tir" \
      2> "$dir/parse.log"; then
    echo "seed $seed failed: parse: $(head -n 1 "$dir/parse.log")"
    ok=false
  fi
  for target in default blas pytorch; do
    $ok || break
    check "$dir/terms.tir" "$target" || ok=false
  done
  if check "$dir/glenside.tir" gemmini; then
    if ! grep -q gemmini.systolicArray "$dir/gemmini.dot"; then
      echo "seed $seed failed: saturate gemmini found no systolic-array call"
      ok=false
    fi
  else
    ok=false
  fi
  if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
done
echo "fuzz-saturate: $passed passed, $failed failed (logs in $work)"
[ "$failed" -eq 0 ]
