# Sourced by the benchmarks that build Tessel's tools, compile C and print
# figures beside the core's FMA peak: what they all do first.
#   bench_tools TOOL...  builds //tools/TOOL with -c opt and sets `bin`, the
#                        directory holding each TOOL/TOOL, and `work`, a
#                        scratch directory removed on exit
#   bench_peak           measures one core's f32 fused multiply-add peak
#                        (fma_peak.c), prints it and sets `peak` (GFLOP/s)
#   bench_vectorize_flags  sets `vectorize_flags`, vectorize's options from
#                        the environment (TARGET, default avx512; STRATEGY,
#                        a strategy file), and prints them
bench_tools() {
  local targets=()
  for tool in "$@"; do targets+=("//tools/$tool"); done
  scripts/bazel.sh build -c opt "${targets[@]}" 2>/dev/null
  bin=$(scripts/bazel.sh info -c opt bazel-bin 2>/dev/null)/tools
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}

bench_peak() {
  cc -std=gnu11 -O2 -march=native scripts/bench/fma_peak.c -o "$work/fma_peak"
  local line
  line=$("$work/fma_peak")
  echo "$line"
  peak=${line%% *}
}

bench_vectorize_flags() {
  vectorize_flags=(--target "${TARGET:-avx512}")
  if [ -n "${STRATEGY:-}" ]; then
    vectorize_flags+=(--strategy "$STRATEGY")
  fi
  echo "vectorize ${vectorize_flags[*]}"
}
