#!/bin/bash
# Compiles a CS-1 module's emit-cs1 harness (the PE code with cs1_api.h's
# host implementation) and checks that it computes, bit for bit, what
# run-sim computes on the same random inputs: built with `-O2` and with
# `-O3 -march=native`, warnings as errors; each build's outputs compared
# with `run-sim --expect --rtol 0 --atol 0` (which prints a summary) and
# byte for byte with the files run-sim writes.
#
# usage: check-cs1.sh FILE.tir [--seed N] [--work DIR]
# The tools (emit-cs1, run-sim) and `cc` are taken from PATH.
set -euo pipefail

file=""
seed=1
work=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seed) seed="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    -*) echo "check-cs1: error: unknown flag '$1'" >&2; exit 2 ;;
    *) file="$1"; shift ;;
  esac
done
if [ -z "$file" ]; then
  echo "usage: check-cs1.sh FILE.tir [--seed N] [--work DIR]" >&2
  exit 2
fi
[ -n "$work" ] || work=$(mktemp -d)
mkdir -p "$work"

emit-cs1 --harness "$file" -o "$work/program.c"
# The random inputs and run-sim's outputs, side by side.
rm -rf "$work/ref"
run-sim "$file" --seed "$seed" --outputs "$work/ref" > /dev/null
build=0
for flags in "-O2" "-O3 -march=native"; do
  binary="$work/program$build"
  cc -std=c99 $flags -Wall -Wextra -Werror "$work/program.c" -o "$binary"
  rm -rf "$work/out$build"
  "$binary" --inputs "$work/ref" --outputs "$work/out$build"
  echo "[$flags]"
  run-sim "$file" --inputs "$work/ref" --expect "$work/out$build" \
    --rtol 0 --atol 0
  for output in "$work/out$build"/*.npy; do
    cmp "$output" "$work/ref/$(basename "$output")"
  done
  build=$((build + 1))
done
