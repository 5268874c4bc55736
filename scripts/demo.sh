#!/bin/bash
# The demo pipeline: the LAIR conv2d kernel and a gemm through parse, run-sim,
# emit-c and the C compiler, checking that the compiled kernel computes what
# the interpreter computes, at the loop level and at the tensor level; then
# LIAR's gemv through saturate, to BLAS and to PyTorch calls, checked by
# run-sim.
#   scripts/demo.sh [WORK_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/bazel.sh build //tools/parse //tools/run-sim //tools/emit-c //tools/saturate
bin=$(bazel info bazel-bin 2>/dev/null)
export PATH="$bin/tools/parse:$bin/tools/run-sim:$bin/tools/emit-c:$bin/tools/saturate:$PATH"
work="${1:-$(mktemp -d)}"

echo "== conv2d, as in the LAIR listing (testdata/kernels/conv2d.tk)"
cat testdata/kernels/conv2d.tk
scripts/check-kernel.sh testdata/kernels/conv2d.tk --work "$work/conv2d"
echo
echo "The loop-level IR it checked:"
cat "$work/conv2d/loops.tir"

echo
echo "== gemm with sizes bound on the command line (testdata/kernels/gemm.tk)"
scripts/check-kernel.sh testdata/kernels/gemm.tk -D M=48 -D N=40 -D K=32 \
  --work "$work/gemm"

echo
echo "== gemv through saturate (testdata/kernels/gemv.tk; LIAR, Tables II-III)"
mkdir -p "$work/gemv"
parse testdata/kernels/gemv.tk -D M=32 -D N=24 --emit=terms -o "$work/gemv/terms.tir"
for target in blas pytorch; do
  saturate "$work/gemv/terms.tir" --target "$target" -o "$work/gemv/$target.tir"
  echo "-- --target $target:"
  cat "$work/gemv/$target.tir"
  run-sim "$work/gemv/terms.tir" --seed 1 --compare "$work/gemv/$target.tir"
done
echo
echo "demo: done; every intermediate file is under $work"
