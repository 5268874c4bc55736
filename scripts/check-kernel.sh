#!/bin/bash
# Runs one kernel through the whole pipeline and checks every stage against
# the reference interpreter:
#   parse --emit=loops and --emit=terms (and parse again: the IR must print
#   back byte for byte), run-sim on seeded inputs,
#   run-sim --compare (loops vs terms), emit-c --harness, cc, the compiled
#   kernel on the same inputs, run-sim --expect (interpreter vs C), and
#   scripts/numpy_kernel.py, an independent NumPy evaluation of the kernel
#   (interpreter vs NumPy).
#
# usage: check-kernel.sh KERNEL.tk [-D NAME=VALUE]... [--seed N] [--work DIR]
#                        [--cc COMPILER]
# The tools are taken from PATH (scripts/demo.sh puts Bazel's on it); when
# one is missing there, they are built and Bazel's are used.
set -euo pipefail

if ! command -v parse > /dev/null || ! command -v run-sim > /dev/null ||
   ! command -v emit-c > /dev/null; then
  root="$(cd "$(dirname "$0")/.." && pwd)"
  (cd "$root" && scripts/bazel.sh build //tools/parse //tools/run-sim \
    //tools/emit-c >&2)
  bin=$(cd "$root" && bazel info bazel-bin 2> /dev/null)
  PATH="$bin/tools/parse:$bin/tools/run-sim:$bin/tools/emit-c:$PATH"
fi

kernel=""
defines=()
seed=1
work=""
cc="${CC:-cc}"
while [ $# -gt 0 ]; do
  case "$1" in
    -D) defines+=(-D "$2"); shift 2 ;;
    -D*) defines+=("$1"); shift ;;
    --seed) seed="$2"; shift 2 ;;
    --work) work="$2"; shift 2 ;;
    --cc) cc="$2"; shift 2 ;;
    -*) echo "check-kernel: error: unknown flag '$1'" >&2; exit 2 ;;
    *) kernel="$1"; shift ;;
  esac
done
[ -n "$kernel" ] || { echo "usage: check-kernel.sh KERNEL.tk [-D N=V]... [--seed N] [--work DIR]" >&2; exit 2; }
[ -n "$work" ] || work=$(mktemp -d)
# Every file the steps write is rewritten, so an existing folder is reused
# as it is (never emptied: it may be the user's).
mkdir -p "$work"

step() { printf '\n$ %s\n' "$*"; "$@"; }

step parse "$kernel" ${defines[@]+"${defines[@]}"} --emit=loops -o "$work/loops.tir"
step parse "$kernel" ${defines[@]+"${defines[@]}"} --emit=terms -o "$work/terms.tir"
# Both files are canonical: reading and printing them gives the same bytes.
for level in loops terms; do
  step parse "$work/$level.tir" -o "$work/$level.reprinted.tir"
  step cmp "$work/$level.tir" "$work/$level.reprinted.tir"
done
step run-sim "$work/loops.tir" --seed "$seed" --outputs "$work/ref"
step run-sim "$work/loops.tir" --inputs "$work/ref" --compare "$work/terms.tir"
step emit-c --harness "$work/loops.tir" -o "$work/kernel.c"
step "$cc" -std=c99 -O2 -Wall -Wextra -Werror "$work/kernel.c" -o "$work/kernel"
step "$work/kernel" --inputs "$work/ref" --outputs "$work/c"
step run-sim "$work/loops.tir" --inputs "$work/ref" --expect "$work/c"
step /usr/bin/python3 "$(dirname "$0")/numpy_kernel.py" "$kernel" \
  ${defines[@]+"${defines[@]}"} --inputs "$work/ref" --outputs "$work/numpy"
step run-sim "$work/loops.tir" --inputs "$work/ref" --expect "$work/numpy"
printf '\n%s: interpreter (loops), interpreter (terms), compiled C and NumPy agree\n' \
  "$(basename "$kernel")"
