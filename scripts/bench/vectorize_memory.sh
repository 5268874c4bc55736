#!/bin/bash
# Benchmark: the memory-bound kernels of MLIR's code generation paper
# (Copy2D, Transpose2D, RowRed2D, ColRed2D: testdata/vectorize/Inputs, kept
# out of testdata/kernels, whose every kernel other tools' tests run) at
# sizes whose data fits L1, L2 and L3, through parse, vectorize (the default
# strategy of --target avx512, or of $TARGET) and emit-c, compiled with the
# system C compiler, against the scalar loops' C (parse | emit-c) and
# memcpy of the kernel's input (the copy bandwidth, measured in the same
# run), single thread, with the core's FMA peak printed first as the other
# benchmarks do. ROUNDS (default 3) interleaved rounds: every kernel and
# size once per round. Prints figures and ratios; asserts nothing.
#   scripts/bench/vectorize_memory.sh [SIZE...]   (default: 48 256 1024)
#   KERNELS="copy2d colred2d" STRATEGY=FILE scripts/bench/vectorize_memory.sh
# VECTORIZE=FILE runs that vectorize binary instead of this checkout's (a
# build of the base branch, for before/after figures in interleaved runs).
set -euo pipefail
cd "$(dirname "$0")/../.."
scripts/setup.sh
. scripts/bench/harness.sh
bench_tools parse vectorize emit-c
vectorize=${VECTORIZE:-$bin/vectorize/vectorize}
cflags=(-std=c11 -O3 -march=native)
echo "compiler: $(cc --version | head -1); flags: ${cflags[*]}"
echo "caches: $(lscpu | grep -E '^L[123]d? cache' | tr -s ' ' | paste -sd ';')"
bench_vectorize_flags
bench_peak
sizes=("$@")
[ $# -eq 0 ] && sizes=(48 256 1024)
binaries=()
for kernel in ${KERNELS:-copy2d transpose2d rowred2d colred2d}; do
  for size in "${sizes[@]}"; do
    dir="$work/$kernel-$size"
    mkdir -p "$dir"
    "$bin/parse/parse" "testdata/vectorize/Inputs/$kernel.tk" -D M="$size" \
      -D N="$size" -o "$dir/scalar.tir"
    "$vectorize" "$dir/scalar.tir" "${vectorize_flags[@]}" \
      -o "$dir/vector.tir"
    for form in scalar vector; do
      "$bin/emit-c/emit-c" "$dir/$form.tir" -o "$dir/$form.c"
      cc "${cflags[@]}" -c -D"$kernel"="kernel_$form" "$dir/$form.c" \
        -o "$dir/$form.o"
    done
    case "$kernel" in
      copy2d | transpose2d) out=$((size * size)) ;;
      *) out=$size ;;
    esac
    cc "${cflags[@]}" -DNAME="\"$kernel\"" -DM="$size" -DN="$size" \
      -DOUT="$out" scripts/bench/memory_bench.c "$dir/vector.o" \
      "$dir/scalar.o" -o "$dir/bench" -lm
    binaries+=("$dir/bench")
  done
done
for round in $(seq "${ROUNDS:-3}"); do
  echo "round $round:"
  for binary in "${binaries[@]}"; do "$binary"; done
done
