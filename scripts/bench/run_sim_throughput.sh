#!/bin/bash
# Benchmark: the reference interpreter's throughput, in multiply-adds per
# second, on kernels at every level it runs (loops, tensor terms, vectors,
# CS-1 PE programs), each against the same computation as loop-level C from
# emit-c, compiled apart with `cc -O2` and timed in process in the same run.
# The ratio run-sim / C is the figure that survives a change of machine.
# run-sim's time is the best of RUNS whole commands (`run-sim --inputs`,
# reading inputs generated beforehand with --seed 1, and writing the output
# summary), C's the best of five
# runs of at least 50 ms; both are processor time (user and system), which
# other work on a busy machine disturbs less than the wall clock. The tools
# are built optimised (-c opt), as users run them. With --against RUN_SIM,
# another build of run-sim (an earlier version, say) runs every module too,
# and its time over this one's is printed. Asserts nothing.
#   scripts/bench/run_sim_throughput.sh [--against RUN_SIM] [RUNS]
#   (default: 3 runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
against=""
if [ "${1:-}" = "--against" ]; then
  against="$(realpath "$2")"
  shift 2
fi
runs="${1:-3}"
scripts/setup.sh
scripts/bazel.sh build -c opt //tools/parse //tools/emit-c //tools/run-sim \
  2>/dev/null
bin=$(bazel info -c opt bazel-bin 2>/dev/null)/tools
here=scripts/bench/run_sim
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Processor seconds (user and system) of the fastest of $runs runs of a
# command.
best_seconds() {
  local best="" times elapsed
  for ((run = 0; run < runs; run++)); do
    times=$( { TIMEFORMAT='%U %S'; time "$@" >/dev/null; } 2>&1 | tail -1)
    elapsed=$(echo "${times% *} + ${times#* }" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc -l)" -eq 1 ]; then
      best="$elapsed"
    fi
  done
  echo "$best"
}

# The seconds per call of loop-level TIR $1 compiled by emit-c and cc -O2,
# with data parameters $2 (time_kernel.c's BUFFERS) and call $3.
c_seconds() {
  "$bin/emit-c/emit-c" "$1" -o "$work/kernel.c"
  cc -std=c99 -O2 -DKERNEL_C="\"$work/kernel.c\"" -DBUFFERS="$2" \
    -DCALL="$3" "$here/time_kernel.c" -o "$work/time_kernel" -lm
  "$work/time_kernel"
}

# One line: the kernel, its level, run-sim's time on module $4 and
# throughput for $3 multiply-adds, and the ratio to C's $5 seconds.
report() {
  local name="$1" level="$2" macs="$3" module="$4" c="$5"
  local seconds old=""
  rm -rf "$work/inputs"
  "$bin/run-sim/run-sim" "$module" --seed 1 --outputs "$work/inputs" >/dev/null
  seconds=$(best_seconds "$bin/run-sim/run-sim" "$module" --inputs "$work/inputs")
  if [ -n "$against" ]; then
    old=$(best_seconds "$against" "$module" --inputs "$work/inputs")
    old=$(printf '   against %8.3f s: %5.1fx' "$old" "$(echo "$old / $seconds" | bc -l)")
  fi
  printf '%-8s %-6s %8.3f s %8.1f M MAC/s   C %8.5f s   run-sim / C %6.1f%s\n' \
    "$name" "$level" "$seconds" "$(echo "$macs / $seconds / 1000000" | bc -l)" \
    "$c" "$(echo "$seconds / $c" | bc -l)" "$old"
}

# A kernel of the kernel language at the loop and the tensor level.
kernel() {
  local name="$1" file="$2" macs="$3" buffers="$4" call="$5"
  shift 5
  "$bin/parse/parse" "$file" "$@" -o "$work/$name.tir"
  "$bin/parse/parse" "$file" "$@" --emit=terms -o "$work/$name.terms.tir"
  local c
  c=$(c_seconds "$work/$name.tir" "$buffers" "$call")
  report "$name" loops "$macs" "$work/$name.tir" "$c"
  report "$name" terms "$macs" "$work/$name.terms.tir" "$c"
}

echo "run-sim (-c opt) against emit-c's C (cc -O2, $(cc --version | head -1)); best of $runs"
# The machine, for the record: its core's FMA peak.
cc -std=gnu11 -O2 -march=native scripts/bench/fma_peak.c -o "$work/fma_peak"
"$work/fma_peak"
n=256
kernel matmul testdata/kernels/matmul.tk $((n * n * n)) \
  "X(A, float, $n * $n) X(B, float, $n * $n) X(C, float, $n * $n)" \
  "matmul(A, B, C)" -D M=$n -D N=$n -D K=$n
kernel conv2d "$here/conv2d.tk" $((16 * 16 * 56 * 56 * 9)) \
  "X(x, float, 16 * 58 * 58) X(w, float, 16 * 16 * 9) X(y, float, 16 * 56 * 56)" \
  "conv2d(x, w, y)" -D C=16 -D K=16 -D H=56 -D W=56 -D HP=58 -D WP=58 -D R=3
m=1024 r=16
kernel rowsum "$here/rowsum.tk" $((r * m * m)) \
  "X(x, float, $m * $m) X(y, float, $m)" "rowsum(x, y)" -D R=$r -D M=$m -D N=$m
kernel colsum "$here/colsum.tk" $((r * m * m)) \
  "X(x, float, $m * $m) X(y, float, $m)" "colsum(x, y)" -D R=$r -D M=$m -D N=$m

# The vector level: the matmul on 16-lane vectors, an fma per k (its C is
# the loop-level matmul's).
{
  echo "(proc @matmul ((in A (f32 $n $n)) (in B (f32 $n $n)) (out C (f32 $n $n)))"
  echo "  (for i 0 $n (for jt 0 $((n / 16))"
  echo "    (alloc acc (vector f32 16))"
  echo "    (assign acc (broadcast (vector f32 16) 0.0))"
  echo "    (for k 0 $n"
  echo "      (assign acc (fma (broadcast (vector f32 16) (A i k))"
  echo "                       (transfer-read (vector f32 16) B k (* 16 jt) 0.0) acc)))"
  echo "    (transfer-write acc C i (* 16 jt)))))"
} > "$work/vector_matmul.tir"
c=$(c_seconds "$work/matmul.tir" \
  "X(A, float, $n * $n) X(B, float, $n * $n) X(C, float, $n * $n)" \
  "matmul(A, B, C)")
report matmul vector $((n * n * n)) "$work/vector_matmul.tir" "$c"

# The CS-1 level: a fully connected layer of M x N on P PEs for a batch of
# B inputs (the paper's listing 2: one SIMD multiply-add of M/P lanes per
# element of x each PE receives), and F filters of a 1-d convolution of
# width 3 on F PEs (its listing 3: a 3-lane multiply-add per element
# received).
rows=4096 cols=512 pes=8 batch=8
{
  cat targets/cs1/cs1.tir
  r=$((rows / pes))
  echo "(proc @ff_x ((index b) (index j) (in xj f32)"
  echo "             (inout y_local (f32 $batch $r) @PE) (in W_local (f32 $r $cols) @PE))"
  echo "  (assert (and (and (<= 0 b) (< b $batch)) (and (<= 0 j) (< j $cols))))"
  echo "  (call @fmacs $r 1 1 1 (dsd y_local (* $r b) ($r 1)) (dsd W_local j ($r $cols)) xj))"
  echo "(pe-program @ff ((in W (f32 $rows $cols)) (in x (f32 $batch $cols)) (out y (f32 $batch $rows)))"
  echo "  (grid (px 1) (py $pes))"
  echo "  (local W_local (f32 $r $cols) @PE (holds W (* $r py) 0))"
  echo "  (local y_local (f32 $batch $r) @PE (holds y 0 (* $r py)))"
  echo "  (task (call @fzeros $((batch * r)) 1 1 1 (dsd y_local 0 ($((batch * r)) 1))))"
  echo "  (task (recv x (b j) xj) (call @ff_x b j xj y_local W_local)))"
} > "$work/cs1_fc.tir"
"$bin/parse/parse" "$here/fc.tk" -D M=$rows -D N=$cols -D B=$batch -o "$work/fc.tir"
c=$(c_seconds "$work/fc.tir" \
  "X(W, float, $rows * $cols) X(x, float, $batch * $cols) X(y, float, $batch * $rows)" \
  "fc(W, x, y)")
report fc cs1 $((batch * rows * cols)) "$work/cs1_fc.tir" "$c"
inputs=65536 filters=8
{
  cat targets/cs1/cs1.tir
  echo "(pe-program @conv1d ((in x (f32 $inputs)) (in W (f32 $filters 3))"
  echo "                     (out y (f32 $filters $((inputs - 2)))))"
  echo "  (grid (px 1) (py $filters))"
  echo "  (local W_local (f32 1 3) @PE (holds W py 0))"
  echo "  (local y_local (f32 1 $((inputs + 2))) @PE (holds y py -2))"
  echo "  (task (call @fzeros $((inputs + 2)) 1 1 1 (dsd y_local 0 ($((inputs + 2)) 1))))"
  echo "  (task (recv x (i) v)"
  echo "    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1)) v)))"
} > "$work/cs1_conv1d.tir"
"$bin/parse/parse" "$here/conv1d.tk" -D NP=$inputs -D N=$((inputs - 2)) \
  -D F=$filters -D S=3 -o "$work/conv1d.tir"
c=$(c_seconds "$work/conv1d.tir" \
  "X(x, float, $inputs) X(W, float, $filters * 3) X(y, float, $filters * $((inputs - 2)))" \
  "conv1d(x, W, y)")
report conv1d cs1 $((3 * inputs * filters)) "$work/cs1_conv1d.tir" "$c"
