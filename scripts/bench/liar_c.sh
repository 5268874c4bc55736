#!/bin/bash
# Benchmark: LIAR's 16 kernels (testdata/kernels, Table I) as plain emit-c C
# (`parse K.tk | emit-c`: the kernel's loop nests) against their BLAS-call C
# (`parse K.tk --emit=terms | saturate --target blas | bufferize | emit-c`,
# linked with single-thread OpenBLAS at its best, openblas.sh), at the
# kernels' `# sizes:` (test sizes, PolyBench's MINI scale) or, with
# `--dataset large`, at PolyBench 4.2.1's LARGE_DATASET sizes (the
# suite's default, which LIAR's PolyBench references run at; the custom
# kernels at the scale of the PolyBench kernel they resemble), both
# compiled with `cc -O3 -march=native`. Each
# kernel's time per call is the best of 5 trials of at least 50 ms
# (liar_driver.py); the plain and BLAS binaries run interleaved, RUNS
# rounds (at least 3), and each figure is the best round. Prints the time
# per call of each, the speed-up (plain / BLAS: above 1, the BLAS calls
# are faster) and the geomean (LIAR's Fig. 9: 1.46x over the reference C),
# with the core's FMA peak and OpenBLAS's kernel. Asserts nothing.
#   scripts/bench/liar_c.sh [--runs N] [--dataset test|large] [KERNEL...]
set -euo pipefail
cd "$(dirname "$0")/../.."
runs=3
dataset=test
kernels=()
while (($#)); do
  case "$1" in
    --runs) runs="$2"; shift 2 ;;
    --dataset) dataset="$2"; shift 2 ;;
    *) kernels+=("$1"); shift ;;
  esac
done
if ((runs < 3)); then
  echo "liar_c: at least 3 runs" >&2
  exit 2
fi
((${#kernels[@]})) || kernels=(2mm atax doitgen gemm gemver gesummv jacobi1d
  mvt 1mm axpy blur1d gemv memset slim-2mm stencil2d vsum)

# PolyBench 4.2.1's LARGE_DATASET, in the kernels' own size names: 2mm,
# atax, doitgen, gemm, gemver, gesummv, jacobi-1d (one time step), mvt as
# PolyBench defines them; 1mm and slim-2mm as gemm, gemv as gemver,
# stencil2d as jacobi-2d (N = 1300), the vector kernels as jacobi-1d.
declare -A large=(
  [2mm]="-D NI=800 -D NJ=900 -D NK=1100 -D NL=1200"
  [atax]="-D M=1900 -D N=2100"
  [doitgen]="-D NR=150 -D NQ=140 -D NP=160"
  [gemm]="-D M=1000 -D N=1100 -D K=1200"
  [gemver]="-D M=2000 -D N=2000"
  [gesummv]="-D M=1300 -D N=1300"
  [jacobi1d]="-D N=2000 -D M=1998"
  [mvt]="-D M=2000 -D N=2000"
  [1mm]="-D M=1000 -D N=1100 -D K=1200"
  [axpy]="-D N=2000"
  [blur1d]="-D N=2000 -D M=1998"
  [gemv]="-D M=2000 -D N=2000"
  [memset]="-D N=2000"
  [slim-2mm]="-D M=1000 -D N=1100 -D K=1200"
  [stencil2d]="-D H=1300 -D W=1300 -D M=1298 -D N=1298"
  [vsum]="-D N=2000"
)
case "$dataset" in
  test | large) ;;
  *) echo "liar_c: unknown dataset '$dataset' (test, large)" >&2; exit 2 ;;
esac
for k in "${kernels[@]}"; do
  if [ ! -f "testdata/kernels/$k.tk" ] ||
     { [ "$dataset" = large ] && [ -z "${large[$k]:-}" ]; }; then
    echo "liar_c: unknown kernel '$k'" >&2
    exit 2
  fi
done
# The -D flags of kernel $1 in the dataset.
sizes_of() {
  if [ "$dataset" = large ]; then
    echo "${large[$1]}"
  else
    sed -n 's/^# sizes://p' "testdata/kernels/$1.tk"
  fi
}

source scripts/bench/openblas.sh
. scripts/bench/harness.sh
bench_tools parse saturate bufferize emit-c

flags="-std=gnu11 -O3 -march=native"
echo "compiler: $(cc --version | head -1), $flags"
bench_peak
cat > "$work/corename.c" <<'C'
#include <stdio.h>
char *openblas_get_corename(void);
int main(void) { printf("OpenBLAS core: %s\n", openblas_get_corename()); return 0; }
C
cc "$work/corename.c" -o "$work/corename" -L"$openblas_lib" -lopenblas
"$work/corename"

for k in "${kernels[@]}"; do
  tk="testdata/kernels/$k.tk"
  read -r -a sizes <<<"$(sizes_of "$k")"
  "$bin/parse/parse" "$tk" "${sizes[@]}" | "$bin/emit-c/emit-c" - \
    -o "$work/$k.plain.c"
  "$bin/parse/parse" "$tk" "${sizes[@]}" --emit=terms |
    "$bin/saturate/saturate" - --target blas |
    "$bin/bufferize/bufferize" - -o "$work/$k.loops.tir"
  "$bin/emit-c/emit-c" "$work/$k.loops.tir" -o "$work/$k.blas.c"
  python3 scripts/bench/liar_driver.py "$work/$k.loops.tir" "$work/$k.blas.c" \
    > "$work/$k.driver.c"
  for variant in plain blas; do
    # shellcheck disable=SC2086  # the flags are words
    cc $flags -I"$openblas" -Iscripts/bench \
      -DTESSEL_KERNEL="\"$work/$k.$variant.c\"" "$work/$k.driver.c" \
      -o "$work/$k.$variant" -L"$openblas_lib" -lopenblas -lm
  done
done

declare -A best
for ((run = 1; run <= runs; run++)); do
  for k in "${kernels[@]}"; do
    for variant in plain blas; do
      ns=$("$work/$k.$variant")
      key="$k.$variant"
      if [ -z "${best[$key]:-}" ] ||
         awk -v a="$ns" -v b="${best[$key]}" 'BEGIN { exit !(a < b) }'; then
        best[$key]=$ns
      fi
    done
  done
done

echo
printf "%-10s %-34s %12s %12s %9s\n" kernel sizes "plain ns" "BLAS ns" speed-up
product=1
for k in "${kernels[@]}"; do
  sizes=$(sizes_of "$k" | sed 's/-D //g; s/^ //')
  plain=${best[$k.plain]}
  blas=${best[$k.blas]}
  speedup=$(awk -v p="$plain" -v b="$blas" 'BEGIN { printf "%.2f", p / b }')
  product=$(awk -v x="$product" -v p="$plain" -v b="$blas" \
    'BEGIN { printf "%.12g", x * p / b }')
  printf "%-10s %-34s %12s %12s %8sx\n" "$k" "$sizes" "$plain" "$blas" "$speedup"
done
awk -v x="$product" -v n="${#kernels[@]}" \
  'BEGIN { printf "geomean speed-up: %.2fx (LIAR, Fig. 9: 1.46x)\n", x ^ (1 / n) }'
