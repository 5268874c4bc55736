#!/bin/bash
# Benchmark: the matmul kernel through parse and emit-c, compiled with the
# system C compiler, against OpenBLAS's sgemm and a hand-written reference C
# kernel in the same run; and the reference interpreter against the compiled
# kernel. Prints figures and ratios; asserts nothing.
#   scripts/bench/matmul.sh [SIZE...]   (default: 128 256 512)
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
. scripts/bench/openblas.sh
# Optimised tools: the interpreter's figure below depends on it.
. scripts/bench/harness.sh
bench_tools parse emit-c run-sim
cflags=(-std=c11 -O3 -march=native)
echo "compiler: $(cc --version | head -1); flags: ${cflags[*]}"
# The core's FMA peak is the roof beside every figure.
bench_peak
for n in "${@:-128 256 512}"; do
  for size in $n; do
    "$bin/parse/parse" testdata/kernels/matmul.tk -D M="$size" -D N="$size" \
      -D K="$size" -o "$work/matmul.tir"
    "$bin/emit-c/emit-c" "$work/matmul.tir" -o "$work/kernel.c"
    cc "${cflags[@]}" -DSIZE="$size" -DTESSEL_KERNEL="\"$work/kernel.c\"" \
      -I"$openblas" scripts/bench/matmul_bench.c -o "$work/bench" \
      -L"$openblas_lib" -Wl,-rpath,"$openblas_lib" -lopenblas -lm
    "$work/bench"
  done
done

# The interpreter against the compiled kernel, whole commands (I/O included).
size=128
"$bin/parse/parse" testdata/kernels/matmul.tk -D M=$size -D N=$size -D K=$size \
  -o "$work/matmul.tir"
"$bin/emit-c/emit-c" --harness "$work/matmul.tir" -o "$work/harness.c"
cc "${cflags[@]}" "$work/harness.c" -o "$work/harness"
"$bin/run-sim/run-sim" "$work/matmul.tir" --seed 1 --outputs "$work/data" >/dev/null
seconds() { local s=$(date +%s.%N); "$@" >/dev/null; echo "$(date +%s.%N) - $s" | bc -l; }
interp=$(seconds "$bin/run-sim/run-sim" "$work/matmul.tir" --inputs "$work/data")
compiled=$(seconds "$work/harness" --inputs "$work/data" --outputs "$work/out")
printf 'run-sim vs compiled harness, matmul %d (whole commands): %.3f s vs %.3f s, ratio %.1f\n' \
  $size "$interp" "$compiled" "$(echo "$interp / $compiled" | bc -l)"
