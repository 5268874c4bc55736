#!/bin/bash
# LIAR's kernels through the BLAS pipeline to C linked with OpenBLAS:
#   parse K.tk --emit=terms | saturate --target blas | bufferize | emit-c
# at each kernel's `# sizes:`; the compiled C must compute what run-sim
# computes for the bufferized module (check-c.sh, at run-sim's tolerances:
# OpenBLAS sums in its own order), and the bufferized module what the
# saturated func computes. Prints the calls the C makes, then "K: ok".
#   check_blas_c.sh WORK_DIR KERNEL...
set -euo pipefail
here=$(dirname "$0")
work=$1
shift
# One OpenBLAS thread: the same sums in the same order on every run.
export OPENBLAS_NUM_THREADS=1
for k in "$@"; do
  tk="$here/../../kernels/$k.tk"
  read -r -a sizes <<<"$(sed -n 's/^# sizes://p' "$tk")"
  rm -rf "${work:?}/$k" && mkdir -p "$work/$k"
  parse "$tk" "${sizes[@]}" --emit=terms |
    saturate - --target blas -o "$work/$k/blas.tir"
  bufferize "$work/$k/blas.tir" -o "$work/$k/loops.tir"
  run-sim "$work/$k/blas.tir" --seed 7 --compare "$work/$k/loops.tir" \
    > "$work/$k/compare.txt"
  if grep -v ': ok$' "$work/$k/compare.txt"; then exit 1; fi
  run-sim "$work/$k/loops.tir" --seed 7 --outputs "$work/$k/inputs" > /dev/null
  "$here/../../../scripts/check-c.sh" "$work/$k/loops.tir" \
    --inputs "$work/$k/inputs" --work "$work/$k/c" --ldlibs -lopenblas \
    --reassociates > "$work/$k/check.txt"
  if grep -v -e ': ok$' -e '^\[' "$work/$k/check.txt"; then exit 1; fi
  calls=$({ grep -o 'cblas_s[a-z]*' "$work/$k/c/kernel.c" || true; } |
    sort | uniq -c |
    awk '{printf "%s%s x%s", sep, $2, $1; sep=", "}')
  echo "$k: ${calls:-no calls}"
  echo "$k: ok"
done
