#!/bin/bash
# Differential testing of vectorize on random kernels and random strategies
# (scripts/random_strategy.py). Each seed draws a kernel (one of
# scripts/random_kernel.py, or one of testdata/kernels, scripts/bench/conv,
# scripts/bench/matmul or testdata/vectorize/Inputs at drawn sizes, tails
# and 1 included) and, for each target (avx512, avx2), a strategy of random
# valid values, then:
#   - vectorize --target T --strategy S either writes the vector level
#     (exit 0) or rejects the input with an `error:` message (exit 1), in
#     at most 120 s; a crash, a hang or another status fails;
#   - the vector level reads back with parse and prints back byte for byte;
#   - run-sim --compare computes the loops' outputs from it, on the seed's
#     inputs: bit for bit (--rtol 0 --atol 0) where docs/vectorize.md
#     ("Rounding") promises the loops' bits (`contraction mul-add`, no
#     vector reduction of a sum, and no `tile` or `interchange`, which may
#     reorder the reduction loops as asked: the sums in the loops' order),
#     else at run-sim's default tolerance;
#   - scripts/check-c.sh: emit-c --harness's C, at -O2 and at -O3
#     -march=native, computes run-sim's bytes.
#   fuzz-vectorize.sh FIRST_SEED COUNT [WORK_DIR]
# (each seed works in WORK_DIR/seedN, which it empties first)
# Prints one line per failing case and per rejection, and a closing
# "N passed, N rejected, N failed" (cases: a seed and a target). The tools
# come from PATH.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/fuzz_seeds.sh"

# check TARGET: vectorizes $dir/loops.tir with a random strategy and checks
# the result. Status 0 passed, 1 failed, 2 rejected cleanly.
check() {
  local target="$1" out="$dir/$1" status=0 exact=() strategy_seed=$((2 * seed))
  [ "$target" = avx512 ] || strategy_seed=$((strategy_seed + 1))
  mkdir -p "$out"
  /usr/bin/python3 "$here/random_strategy.py" strategy "$strategy_seed" \
    "$dir/loops.tir" > "$out/strategy"
  timeout 120 vectorize "$dir/loops.tir" --target "$target" \
    --strategy "$out/strategy" -o "$out/vector.tir" 2> "$out/vectorize.err" ||
    status=$?
  if [ "$status" -eq 1 ] && grep -q ': error: ' "$out/vectorize.err"; then
    echo "seed $seed $target rejected: $(grep -m 1 ': error: ' "$out/vectorize.err")"
    return 2
  elif [ "$status" -ne 0 ]; then
    echo "seed $seed $target failed: vectorize exited with $status:" \
      "$(head -n 1 "$out/vectorize.err")"
    return 1
  fi
  if ! parse "$out/vector.tir" -o "$out/reprinted.tir" 2> "$out/parse.err" ||
     ! cmp -s "$out/vector.tir" "$out/reprinted.tir"; then
    echo "seed $seed $target failed: the vector level does not read back:" \
      "$(head -n 1 "$out/parse.err")"
    return 1
  fi
  if grep -q 'contraction mul-add' "$out/strategy" &&
     ! grep -q -e '^tile ' -e '^interchange ' "$out/strategy" &&
     ! grep -q -e '(reduction add' -e '(multi-reduction add' "$out/vector.tir"; then
    exact=(--rtol 0 --atol 0)
  fi
  if ! run-sim "$dir/loops.tir" --inputs "$dir/ref" --compare "$out/vector.tir" \
      ${exact[@]+"${exact[@]}"} > "$out/compare.log" 2>&1; then
    echo "seed $seed $target failed: run-sim finds the vector level different" \
      "${exact[@]+(exact)}: $(grep -m 1 -v ': ok$' "$out/compare.log")"
    return 1
  fi
  if ! "$here/check-c.sh" "$out/vector.tir" --inputs "$dir/ref" \
      --work "$out/c" > "$out/check-c.log" 2>&1; then
    echo "seed $seed $target failed: the C differs from run-sim:" \
      "$(grep -m 1 -v -e '^\[' -e ': ok$' "$out/check-c.log")"
    return 1
  fi
}

passed=0 rejected=0 failed=0
for ((seed = first; seed < first + count; seed++)); do
  seed_dir "$seed"
  draw_kernel "$seed"
  echo "$kernel ${defines[*]}" > "$dir/kernel"
  if ! parse "$kernel" ${defines[@]+"${defines[@]}"} -o "$dir/loops.tir" \
      2> "$dir/parse.err" ||
     ! run-sim "$dir/loops.tir" --seed "$seed" --outputs "$dir/ref" \
      > /dev/null 2> "$dir/run-sim.err"; then
    echo "seed $seed failed: $kernel ${defines[*]}:" \
      "$(cat "$dir/parse.err" "$dir/run-sim.err" | head -n 1)"
    failed=$((failed + 2))
    continue
  fi
  for target in avx512 avx2; do
    check "$target"
    case $? in
      0) passed=$((passed + 1)) ;;
      2) rejected=$((rejected + 1)) ;;
      *) failed=$((failed + 1)) ;;
    esac
  done
done
echo "fuzz-vectorize: $passed passed, $rejected rejected, $failed failed" \
  "(logs in $work)"
[ "$failed" -eq 0 ]
