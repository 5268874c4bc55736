#!/bin/bash
# Benchmark: emit-c's C for the vector level against its C for the loop
# level, on testdata/run-sim/vector_matmul.tir scaled to SIZE (4x4 tiles of
# C, contract over 4-wide slices of k, as written there) and the scalar
# loops it is compared with; single thread, at -O2 and at -O3
# -march=native, with the core's FMA peak measured in the same run. Prints
# figures; asserts nothing.
#   scripts/bench/vector_matmul.sh [SIZE...]   (default: 256)
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/harness.sh
bench_tools emit-c
echo "compiler: $(cc --version | head -1)"
bench_peak
for size in "${@:-256}"; do
  if [ $((size % 4)) -ne 0 ]; then
    echo "vector_matmul: $size is not a multiple of the 4x4 tiles" >&2
    exit 2
  fi
  tiles=$((size / 4))
  # vector_matmul.tir and its scalar loops, at SIZE.
  sed -e "s/(f32 8 6)/(f32 $size $size)/; s/(f32 6 12)/(f32 $size $size)/" \
      -e "s/(f32 8 12)/(f32 $size $size)/; s/(for it 0 2/(for it 0 $tiles/" \
      -e "s/(for jt 0 3/(for jt 0 $tiles/; s/(for kt 0 2/(for kt 0 $tiles/" \
      -e "s/(proc @matmul/(proc @vmatmul/" \
      testdata/run-sim/vector_matmul.tir > "$work/kernels.tir"
  sed -e "s/(f32 8 6)/(f32 $size $size)/; s/(f32 6 12)/(f32 $size $size)/" \
      -e "s/(f32 8 12)/(f32 $size $size)/; s/(for i 0 8/(for i 0 $size/" \
      -e "s/(for j 0 12/(for j 0 $size/; s/(for k 0 6/(for k 0 $size/" \
      testdata/run-sim/Inputs/vector_matmul_scalar.tir >> "$work/kernels.tir"
  "$bin/emit-c/emit-c" "$work/kernels.tir" -o "$work/kernels.c"
  for flags in "-O2" "-O3 -march=native"; do
    echo "cc -std=c11 $flags:"
    # shellcheck disable=SC2086  # the flags are words
    cc -std=c11 $flags -DSIZE="$size" -DTESSEL_KERNELS="\"$work/kernels.c\"" \
      scripts/bench/vector_matmul_bench.c -o "$work/bench" -lm
    "$work/bench"
  done
done
