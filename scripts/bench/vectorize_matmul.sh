#!/bin/bash
# Benchmark: the matmul kernel through parse, vectorize (the default
# strategy of --target avx512, or of $TARGET) and emit-c, compiled with the
# system C compiler, against OpenBLAS's sgemm and a hand-written reference
# C kernel and MLIR's simple CPU recipe (scripts/bench/mlir/matmul.sh) in
# the same run (scripts/bench/matmul_bench.c), with the core's FMA peak
# measured first. Prints figures and ratios; asserts nothing.
# VARIANT=tn or nt times the kernel of scripts/bench/matmul/ that reads A
# or B stored transposed instead (BLAS's "TN" and "NT" sgemm; MLIR's
# recipe is not timed for them).
#   scripts/bench/vectorize_matmul.sh [SIZE...]   (default: 64 256 512 1024)
#   TARGET=avx2 STRATEGY=FILE scripts/bench/vectorize_matmul.sh 256
#   VARIANT=tn scripts/bench/vectorize_matmul.sh 256 2048
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
. scripts/bench/openblas.sh
. scripts/bench/mlir/matmul.sh
. scripts/bench/harness.sh
bench_tools parse vectorize emit-c
case "${VARIANT:-nn}" in
  nn) kernel=testdata/kernels/matmul.tk variant=(-DWITH_MLIR) ;;
  tn) kernel=scripts/bench/matmul/matmul_tn.tk variant=(-DTRANS_A=1) ;;
  nt) kernel=scripts/bench/matmul/matmul_nt.tk variant=(-DTRANS_B=1) ;;
  *) echo "vectorize_matmul: unknown VARIANT '$VARIANT' (nn, tn, nt)" >&2
     exit 2 ;;
esac
cflags=(-std=c11 -O3 -march=native)
echo "compiler: $(cc --version | head -1); flags: ${cflags[*]}"
bench_vectorize_flags
bench_peak
for size in "${@:-64 256 512 1024}"; do
  "$bin/parse/parse" "$kernel" -D M="$size" -D N="$size" \
    -D K="$size" -o "$work/matmul.tir"
  "$bin/vectorize/vectorize" "$work/matmul.tir" "${vectorize_flags[@]}" \
    -o "$work/vector.tir"
  "$bin/emit-c/emit-c" "$work/vector.tir" -o "$work/kernel.c"
  objects=()
  if [ "${VARIANT:-nn}" = nn ]; then
    mlir_matmul_object "$size" "$size" "$size" "$work/mlir.o"
    objects=("$work/mlir.o")
  fi
  cc "${cflags[@]}" -DSIZE="$size" -DTESSEL_KERNEL="\"$work/kernel.c\"" \
    "${variant[@]}" -I"$openblas" -Iscripts/bench scripts/bench/matmul_bench.c \
    ${objects[@]+"${objects[@]}"} -o "$work/bench" \
    -L"$openblas_lib" -Wl,-rpath,"$openblas_lib" -lopenblas -lm
  "$work/bench"
done
