#!/bin/bash
# Benchmark: polysimd's programs for the CS-1, in simulated cycles (run-sim
# --cycles, the cost model of targets/cs1/cycles.model) with SIMD
# instructions and with explicit loops only (--no-simd), their ratio, the
# share of compute instances SIMD instructions execute, and polysimd's own
# run time (wall, best of 3). The paper's kernels and placements
# (testdata/polysimd/Inputs), then larger ones: fully connected layers
# split as listing 2, 1-d convolutions of many filters, a strided
# convolution over channels. Every program is checked against its kernel
# by run-sim --compare first. Prints figures; asserts nothing.
#   scripts/bench/cs1.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
. scripts/bench/harness.sh
bench_tools parse polysimd run-sim
inputs=testdata/polysimd/Inputs

# The best wall time of three runs of a command, in milliseconds.
best_ms() {
  local best="" start end ms
  for run in 1 2 3; do
    start=$(date +%s%N)
    "$@" >/dev/null
    end=$(date +%s%N)
    ms=$(( (end - start) / 1000000 ))
    if [ -z "$best" ] || [ "$ms" -lt "$best" ]; then best=$ms; fi
  done
  echo "$best"
}

# The cycles line's figure and the SIMD share of a program.
cycles_of() {
  "$bin/run-sim/run-sim" "$1" --seed 1 --cycles | awk '
    /^cycles:/ { cycles = $2 }
    /^SIMD:/ { share = $2 }
    END { print cycles, share }'
}

printf '%-34s %5s %12s %12s %7s %8s %10s\n' kernel PEs "SIMD cycles" \
  "loop cycles" ratio "SIMD" "polysimd"
# The tolerance of the comparison with the kernel: the default, or for a
# reduction split over PEs, whose partial sums add in another order, one
# that covers reassociating a sum of N products of inputs in [-1, 1] in
# f32 (N times epsilon times the sum of magnitudes, about 1e-4 for N = 512).
tolerance=()
# One line: kernel $2 on placement $3, labelled $1.
measure() {
  local label="$1" kernel="$2" placement="$3"
  "$bin/parse/parse" "$kernel" -o "$work/kernel.tir"
  "$bin/polysimd/polysimd" "$work/kernel.tir" --placement "$placement" \
    -o "$work/simd.tir"
  "$bin/polysimd/polysimd" "$work/kernel.tir" --placement "$placement" \
    --no-simd -o "$work/loops.tir"
  for program in simd loops; do
    if ! "$bin/run-sim/run-sim" "$work/kernel.tir" --seed 1 \
         --compare "$work/$program.tir" "${tolerance[@]}" \
         >"$work/compare" 2>&1; then
      echo "$label: the $program program differs from the kernel" >&2
      cat "$work/compare" >&2
      exit 1
    fi
  done
  read -r simd share < <(cycles_of "$work/simd.tir")
  read -r loops _ < <(cycles_of "$work/loops.tir")
  local pes ms
  pes=$(grep -o '(grid ([a-z_]* [0-9]*) ([a-z_]* [0-9]*))' "$work/simd.tir" |
        awk '{ gsub(/[()]/, ""); print $3 * $5 }')
  ms=$(best_ms "$bin/polysimd/polysimd" "$work/kernel.tir" \
       --placement "$placement")
  printf '%-34s %5s %12s %12s %6.2fx %8s %8s ms\n' "$label" "$pes" "$simd" \
    "$loops" "$(echo "$loops / $simd" | bc -l)" "$share" "$ms"
}

measure "fc 32x16, listing 2" "$inputs/fc.tk" "$inputs/fc_listing2.place"
measure "fc 32x16, listing 1 rows" "$inputs/fc.tk" "$inputs/fc_rows.place"
measure "conv1d 2x3, listing 3" "$inputs/conv1d.tk" "$inputs/conv1d.place"
measure "conv2d 2x3x3 f16, listing 4" "$inputs/conv2d.tk" "$inputs/conv2d.place"
measure "degenerate conv2d, example 5.7" "$inputs/degenerate_conv2d.tk" \
  "$inputs/degenerate_conv2d.place"
measure "strided conv 8x4x3 s2" "$inputs/strided_conv.tk" \
  "$inputs/strided_conv.place"
# Beyond the paper: a unimodular change of variables (sum pooling placed
# input-stationary), and PEs whose part of the output is no box (every
# other row of the fully connected layer).
measure "sum pooling, input-stationary" "$inputs/pool.tk" "$inputs/pool.place"
measure "fc 32x16, every other row" "$inputs/fc.tk" \
  "$inputs/fc_every_other.place"

# Larger: a fully connected layer of M x N on a 4 x 8 rectangle as listing
# 2 (columns of W across a row, rows down the rectangle), and 1-d
# convolutions of 16 filters, one per PE.
for size in "512 256" "1024 512"; do
  read -r m n <<<"$size"
  cat >"$work/fc.tk" <<KERNEL
kernel fc(W: f32[$m, $n], x: f32[$n]) -> (y: f32[$m]) {
  ff: all (i, j) in ($m, $n)  y[i] += W[i, j] * x[j];
}
KERNEL
  printf 'grid { PE[4, 8] }\nplace { ff[i, j] -> PE[j//%d, i//%d] }\nin x stream dense { x[j] -> [PE[0, -1] -> index[j]] }\nin W resident { W[i, j] -> PE[j//%d, i//%d] }\nout y stream { y[i] -> [PE[4, i//%d] -> index[i mod %d]] }\n' \
    $((n / 4)) $((m / 8)) $((n / 4)) $((m / 8)) $((m / 8)) $((m / 8)) \
    >"$work/fc.place"
  tolerance=(--atol 1e-4)
  measure "fc ${m}x${n}, split as listing 2" "$work/fc.tk" "$work/fc.place"
  tolerance=()
done
for width in 1024 4096; do
  printf 'grid { PE[1, 16] }\nplace { C[k, w, rw] -> PE[0, k] }\nin x stream dense { x[i] -> [PE[0, -1] -> index[i]] }\nin W resident { W[k, rw] -> PE[0, k] }\nout y resident { y[k, w] -> PE[0, k] }\n' \
    >"$work/conv1d.place"
  cat >"$work/conv1d.tk" <<KERNEL
kernel conv1d(x: f32[$((width + 4))], W: f32[16, 5]) -> (y: f32[16, $width]) {
  C: all (k, w, rw) in (16, $width, 5)  y[k, w] += x[w + rw] * W[k, rw];
}
KERNEL
  measure "conv1d 16x5 over $width" "$work/conv1d.tk" "$work/conv1d.place"
done

# Sparse streams: the busiest PE's cycles with SIMD on the seeded x (no
# zeros) and on an x of which about half the elements are zero (relu of
# the seeded values, Inputs/sparse_x.tk), whose zeros are not sent.
printf '\n%-34s %12s %12s %6s\n' "sparse x (16 elements)" "dense cycles" \
  "sparse cycles" zeros
"$bin/parse/parse" "$inputs/sparse_x.tk" -o "$work/sparse_x.tir"
rm -rf "$work/zeros"
"$bin/run-sim/run-sim" "$work/sparse_x.tir" --seed 1 --outputs "$work/zeros" \
  >/dev/null
# Its elements (after the 128-byte header) as words: +0 and -0.
zeros=$(od -A n -t x4 -j 128 "$work/zeros/x.npy" | tr -s ' ' '\n' |
        grep -c -E '^(00000000|80000000)$' || true)
sparse() {
  local label="$1" kernel="$2" placement="$3"
  "$bin/parse/parse" "$kernel" -o "$work/kernel.tir"
  "$bin/polysimd/polysimd" "$work/kernel.tir" --placement "$placement" \
    -o "$work/simd.tir"
  rm -rf "$work/in"
  "$bin/run-sim/run-sim" "$work/kernel.tir" --seed 1 --outputs "$work/in" \
    >/dev/null
  cp "$work/zeros/x.npy" "$work/in/x.npy"
  "$bin/run-sim/run-sim" "$work/kernel.tir" --inputs "$work/in" \
    --compare "$work/simd.tir" >/dev/null
  local dense sparse
  read -r dense _ < <(cycles_of "$work/simd.tir")
  sparse=$("$bin/run-sim/run-sim" "$work/simd.tir" --inputs "$work/in" \
           --cycles | awk '/^cycles:/ { print $2 }')
  printf '%-34s %12s %12s %6s\n' "$label" "$dense" "$sparse" "$zeros/16"
}
sparse "conv1d 2x3, listing 3" "$inputs/conv1d.tk" "$inputs/conv1d.place"
sparse "fc 32x16, listing 2" "$inputs/fc.tk" "$inputs/fc_listing2.place"
