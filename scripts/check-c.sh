#!/bin/bash
# Compiles a module's emit-c harness and checks that the C computes, bit for
# bit, what run-sim computes on the same inputs: the harness is built twice,
# with `-O2` and with `-O3 -march=native` (where the compiler exploits any
# undefined behaviour left and uses every vector unit), both with warnings as
# errors; each build's outputs are compared with `run-sim --expect --rtol 0
# --atol 0` (which prints a summary, and takes -0.0 for 0.0 and any NaN for
# another) and byte for byte with the files run-sim writes. A run that fails
# must fail in both, with run-sim's message (after its location) on stderr.
#
# usage: check-c.sh FILE.tir --inputs DIR [--entry NAME] [-D NAME=VALUE]...
#                   [--work DIR] [--fails] [--cflags FLAGS]
#                   [--ldlibs LIBS] [--reassociates] [--cc COMPILER]
# --fails: the entry must stop with an error (status 1) in run-sim and in
# both builds, with the same message.
# --cflags: flags added to both builds, e.g. `-mavx512f -mfma` for a module
# whose instructions are AVX-512 intrinsics.
# --ldlibs: libraries the builds link, e.g. `-lopenblas` for a module whose
# instructions call CBLAS (targets/blas/cblas.tir).
# --cc: the C compiler (default `cc`), e.g. `clang`.
# --reassociates: the C computes sums in another order than the
# instructions' bodies do (a BLAS library blocks and vectorizes them), so
# outputs are compared at run-sim's default tolerances, as `run-sim
# --compare` compares a program with its rewrite, not bit for bit.
# The tools (emit-c, run-sim) and `cc` are taken from PATH.
set -euo pipefail

file=""
inputs=""
work=""
fails=false
cflags=""
ldlibs=""
reassociates=false
compiler=cc
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --inputs) inputs="$2"; shift 2 ;;
    --entry) args+=(--entry "$2"); shift 2 ;;
    -D) args+=(-D "$2"); shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --fails) fails=true; shift ;;
    --cflags) cflags="$2"; shift 2 ;;
    --ldlibs) ldlibs="$2"; shift 2 ;;
    --reassociates) reassociates=true; shift ;;
    --cc) compiler="$2"; shift 2 ;;
    -*) echo "check-c: error: unknown flag '$1'" >&2; exit 2 ;;
    *) file="$1"; shift ;;
  esac
done
if [ -z "$file" ] || [ -z "$inputs" ]; then
  echo "usage: check-c.sh FILE.tir --inputs DIR [--entry NAME] [-D N=V]... [--work DIR] [--fails] [--cflags FLAGS] [--ldlibs LIBS] [--reassociates] [--cc COMPILER]" >&2
  exit 2
fi
[ -n "$work" ] || work=$(mktemp -d)
mkdir -p "$work"

emit-c --harness "$file" ${args[@]+"${args[@]}"} -o "$work/kernel.c"
expected=""
if ! $fails; then
  rm -rf "$work/ref"
  run-sim "$file" ${args[@]+"${args[@]}"} --inputs "$inputs" \
    --outputs "$work/ref" > /dev/null
fi
if $fails; then
  status=0
  run-sim "$file" ${args[@]+"${args[@]}"} --inputs "$inputs" \
    2> "$work/run-sim.err" > /dev/null || status=$?
  if [ "$status" -ne 1 ]; then
    echo "check-c: run-sim exited with $status, not 1" >&2
    exit 1
  fi
  # run-sim's message, after `FILE:LINE:COL: error: `.
  expected=$(sed -n 's/^.*: error: //p' "$work/run-sim.err" | head -1)
fi
build=0
for flags in "-O2" "-O3 -march=native"; do
  binary="$work/kernel$build"
  # -lm: fma calls the C library's fmaf where the target has no FMA.
  "$compiler" -std=c99 $flags $cflags -Wall -Wextra -Werror "$work/kernel.c" \
    -o "$binary" $ldlibs -lm
  status=0
  "$binary" --inputs "$inputs" --outputs "$work/out$build" \
    2> "$work/kernel$build.err" || status=$?
  if $fails; then
    if [ "$status" -ne 1 ] ||
       ! grep -qF "kernel$build: $expected" "$work/kernel$build.err"; then
      echo "check-c: [$flags] expected status 1 and '$expected', got $status:" >&2
      cat "$work/kernel$build.err" >&2
      exit 1
    fi
    echo "[$flags] error: $expected"
  else
    if [ "$status" -ne 0 ]; then
      cat "$work/kernel$build.err" >&2
      exit 1
    fi
    echo "[$flags]"
    diff <(ls "$work/ref") <(ls "$work/out$build")
    if $reassociates; then
      run-sim "$file" ${args[@]+"${args[@]}"} --inputs "$inputs" \
        --expect "$work/out$build"
    else
      run-sim "$file" ${args[@]+"${args[@]}"} --inputs "$inputs" \
        --expect "$work/out$build" --rtol 0 --atol 0
      for output in "$work"/ref/*.npy; do
        cmp "$output" "$work/out$build/$(basename "$output")"
      done
    fi
  fi
  build=$((build + 1))
done
