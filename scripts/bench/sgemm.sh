#!/bin/bash
# Benchmark: SGEMM scheduled by schedule-check. For each size, the loop nest
# that `parse` writes for testdata/kernels/matmul.tk is scheduled with
# scripts/bench/sgemm/matmul.sched (a register-blocked AVX-512 kernel),
# written as C by emit-c (`void matmul(const float *A, const float *B,
# float *C)`), compiled apart, checked bit for bit against run-sim on the
# same inputs (scripts/check-c.sh, up to --check-max), and timed against
# single-thread OpenBLAS and MLIR's simple CPU recipe (scripts/bench/mlir/
# matmul.sh) in the same run, with the core's FMA peak measured beside it.
# With --exo DIR, also times Exo's own SGEMM: DIR holds the sgemm.c and
# sgemm.h that Exo writes for its apps/x86/sgemm/sgemm.py
# (scripts/bench/exo_sgemm.sh makes them; README.md, "Exo's SGEMM").
# With --schedule FILE, schedules with FILE instead (another version of
# matmul.sched, timed against this one in turn).
# Prints figures; asserts nothing.
#   scripts/bench/sgemm.sh [--sweep] [--check-max N] [--exo DIR]
#                          [--schedule FILE] [SIZE...]
# SIZE is a square size or MxNxK (default: 64 128 256 512 1024 2048).
# --sweep adds the fixed-work aspect-ratio sweep of Exo's Fig. 5b: M x N
# with M * N = 512 * 512 from 128 x 2048 to 2048 x 128, K = 512.
# --check-max N: check against run-sim only shapes of at most N^3
# multiply-adds (default 512; run-sim needs about 4 s at 512).
set -euo pipefail
caller=$PWD
cd "$(dirname "$0")/../.."
sweep=false
check_max=512
exo=""
schedule=scripts/bench/sgemm/matmul.sched
sizes=()
while [ $# -gt 0 ]; do
  case "$1" in
    --sweep) sweep=true; shift ;;
    --check-max) check_max="$2"; shift 2 ;;
    --exo) exo="$2"; shift 2 ;;
    --schedule) schedule=$(cd "$caller" && realpath "$2"); shift 2 ;;
    -*) echo "sgemm: error: unknown flag '$1'" >&2; exit 2 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(64 128 256 512 1024 2048)
if $sweep; then
  sizes+=(128x2048x512 256x1024x512 512x512x512 1024x256x512 2048x128x512)
fi
if ! grep -qw avx512f /proc/cpuinfo; then
  echo "sgemm: this core has no AVX-512 (avx512f), which the kernel uses" >&2
  exit 1
fi
scripts/setup.sh
. scripts/bench/openblas.sh
. scripts/bench/mlir/matmul.sh
. scripts/bench/harness.sh
bench_tools parse schedule-check emit-c run-sim
export PATH="$bin/emit-c:$bin/run-sim:$PATH"
cflags=(-std=gnu11 -O3 -march=native)
echo "compiler: $(cc --version | head -1); flags: ${cflags[*]}"
bench_peak
exo_flags=()
if [ -n "$exo" ]; then
  if [ ! -f "$exo/sgemm.c" ] || [ ! -f "$exo/sgemm.h" ]; then
    echo "sgemm: error: no sgemm.c and sgemm.h from Exo in '$exo'" >&2
    exit 2
  fi
  cc "${cflags[@]}" -c "$exo/sgemm.c" -I"$exo" -o "$work/exo_sgemm.o"
  exo_flags=(-DWITH_EXO "$work/exo_sgemm.o")
fi
for size in "${sizes[@]}"; do
  if [[ "$size" =~ ^([0-9]+)x([0-9]+)x([0-9]+)$ ]]; then
    m=${BASH_REMATCH[1]} n=${BASH_REMATCH[2]} k=${BASH_REMATCH[3]}
  else
    m=$size n=$size k=$size
  fi
  "$bin/parse/parse" testdata/kernels/matmul.tk -D M="$m" -D N="$n" -D K="$k" \
    -o "$work/matmul.tir"
  start=$(date +%s.%N)
  "$bin/schedule-check/schedule-check" "$work/matmul.tir" \
    --schedule "$schedule" -o "$work/sgemm.tir"
  scheduled=$(echo "$(date +%s.%N) - $start" | bc -l)
  check="not checked against run-sim (above --check-max)"
  if [ $((m * n * k)) -le $((check_max * check_max * check_max)) ]; then
    run-sim "$work/sgemm.tir" --seed 1 --outputs "$work/data" >/dev/null
    scripts/check-c.sh "$work/sgemm.tir" --inputs "$work/data" \
      --work "$work/check" --cflags "-march=native" >/dev/null
    check="the C equals run-sim bit for bit"
  fi
  emit-c "$work/sgemm.tir" -o "$work/kernel.c"
  mlir_matmul_object "$m" "$n" "$k" "$work/mlir.o"
  cc "${cflags[@]}" -DSIZE_M="$m" -DSIZE_N="$n" -DSIZE_K="$k" -DPEAK="$peak" \
    -DTESSEL_KERNEL="\"$work/kernel.c\"" -I"$openblas" -Iscripts/bench \
    scripts/bench/sgemm_bench.c "$work/mlir.o" "${exo_flags[@]}" -o "$work/bench" \
    -L"$openblas_lib" -Wl,-rpath,"$openblas_lib" -lopenblas -lm
  "$work/bench"
  printf '  scheduled in %.2f s; %s\n' "$scheduled" "$check"
done
