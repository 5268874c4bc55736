#!/bin/bash
# Benchmark: the reference interpreter's throughput, in multiply-adds per
# second, on the matmul kernel at the loop level and at the tensor level.
# The tools are built optimised (-c opt), as users run them. Each figure is
# the best of RUNS whole run-sim commands (seeded inputs, output summary
# included), so that a busy machine disturbs it little. Asserts nothing.
#   scripts/bench/run_sim_throughput.sh [SIZE [RUNS]]   (default: 256 3)
set -euo pipefail
cd "$(dirname "$0")/../.."
size="${1:-256}"
runs="${2:-3}"
scripts/bazel.sh build -c opt //tools/parse //tools/run-sim 2>/dev/null
bin=$(bazel info -c opt bazel-bin 2>/dev/null)/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall-clock seconds of the fastest of $runs runs of a command.
best_seconds() {
  local best="" start elapsed
  for ((run = 0; run < runs; run++)); do
    start=$(date +%s.%N)
    "$@" >/dev/null
    elapsed=$(echo "$(date +%s.%N) - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc -l)" -eq 1 ]; then
      best="$elapsed"
    fi
  done
  echo "$best"
}

macs=$((size * size * size))
echo "run-sim (-c opt), matmul ${size}x${size}x${size} = $macs multiply-adds, --seed 1, best of $runs"
for level in loops terms; do
  "$bin/parse/parse" testdata/kernels/matmul.tk -D M="$size" -D N="$size" \
    -D K="$size" --emit="$level" -o "$work/$level.tir"
  seconds=$(best_seconds "$bin/run-sim/run-sim" "$work/$level.tir" --seed 1)
  printf '%-6s level: %8.3f s  %8.2f M MAC/s\n' "$level" "$seconds" \
    "$(echo "$macs / $seconds / 1000000" | bc -l)"
done
