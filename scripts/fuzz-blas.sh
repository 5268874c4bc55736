#!/bin/bash
# Differential testing of the BLAS path through bufferize on random kernels.
# Even seeds draw a linear-algebra kernel (scripts/random_linalg_kernel.py,
# whose statements saturate turns into BLAS calls), odd seeds a kernel of
# scripts/random_kernel.py, or of testdata/kernels and the others
# fuzz-vectorize.sh draws, at drawn sizes (scripts/random_strategy.py
# kernel). For each:
#   - parse --emit=terms | bufferize, and parse --emit=terms | saturate
#     --target blas | bufferize, must each read back with parse (printed
#     back byte for byte) and compute the kernel's loops' outputs under
#     run-sim --compare on the seed's inputs (default tolerance: saturate
#     reassociates, alpha * (A * B) for (alpha * A) * B);
#   - scripts/check-c.sh: the BLAS module's emit-c --harness, linked with
#     OpenBLAS (one thread) at -O2 and -O3 -march=native, computes what
#     run-sim computes within run-sim's tolerance (OpenBLAS sums in its own
#     order).
#   fuzz-blas.sh FIRST_SEED COUNT [WORK_DIR]
# (each seed works in WORK_DIR/seedN, which it empties first)
# Prints one line per failure and a closing "N passed, N failed (N with
# BLAS calls)". The tools come from PATH.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
. "$here/fuzz_seeds.sh"
export OPENBLAS_NUM_THREADS=1

# fail STEP LOG: reports the seed's failure at STEP with LOG's first line.
fail() {
  echo "seed $seed failed: $1: $(grep -m 1 -v -e ': ok$' -e '^\[' "$2")"
  return 1
}

# check NAME [saturate flags]: bufferizes $dir/terms.tir (saturated with the
# flags first, if any) into $dir/NAME.tir and compares it with the loops.
check() {
  local name="$1" input="$dir/terms.tir"
  shift
  if [ $# -gt 0 ]; then
    input="$dir/$name.terms.tir"
    saturate "$dir/terms.tir" "$@" -o "$input" 2> "$dir/$name.log" ||
      fail "saturate $*" "$dir/$name.log" || return 1
  fi
  timeout 120 bufferize "$input" -o "$dir/$name.tir" 2> "$dir/$name.log" ||
    fail "bufferize ($name)" "$dir/$name.log" || return 1
  { parse "$dir/$name.tir" -o "$dir/$name.reprinted.tir" 2> "$dir/$name.log" &&
    cmp "$dir/$name.tir" "$dir/$name.reprinted.tir" >> "$dir/$name.log" 2>&1; } ||
    fail "bufferize's output ($name) does not read back" "$dir/$name.log" ||
    return 1
  run-sim "$dir/loops.tir" --inputs "$dir/ref" --compare "$dir/$name.tir" \
    > "$dir/$name.log" 2>&1 ||
    fail "run-sim finds the bufferized module ($name) different" \
      "$dir/$name.log"
}

passed=0 failed=0 calls=0
for ((seed = first; seed < first + count; seed++)); do
  seed_dir "$seed"
  defines=()
  if [ $((seed % 2)) -eq 0 ]; then
    kernel="$dir/kernel.tk"
    /usr/bin/python3 "$here/random_linalg_kernel.py" "$seed" > "$kernel"
  else
    draw_kernel "$seed"
  fi
  echo "$kernel ${defines[*]}" > "$dir/kernel"
  ok=true
  if ! parse "$kernel" ${defines[@]+"${defines[@]}"} -o "$dir/loops.tir" \
      2> "$dir/parse.log" ||
     ! parse "$kernel" ${defines[@]+"${defines[@]}"} --emit=terms \
      -o "$dir/terms.tir" 2>> "$dir/parse.log" ||
     ! run-sim "$dir/loops.tir" --seed "$seed" --outputs "$dir/ref" \
      > /dev/null 2>> "$dir/parse.log"; then
    fail "$kernel ${defines[*]}" "$dir/parse.log"
    ok=false
  fi
  $ok && { check plain || ok=false; }
  $ok && { check blas --target blas || ok=false; }
  if $ok && ! "$here/check-c.sh" "$dir/blas.tir" --inputs "$dir/ref" \
      --work "$dir/c" --ldlibs -lopenblas --reassociates \
      > "$dir/check-c.log" 2>&1; then
    fail "the C linked with OpenBLAS differs from run-sim" "$dir/check-c.log"
    ok=false
  fi
  if $ok; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
  grep -q 'cblas_' "$dir/c/kernel.c" 2> /dev/null && calls=$((calls + 1))
done
echo "fuzz-blas: $passed passed, $failed failed ($calls with BLAS calls;" \
  "logs in $work)"
[ "$failed" -eq 0 ]
