#!/bin/bash
# Benchmark: peak memory and speed of every tool on large generated inputs
# (scripts/bench/large_input.py: many small kernels). For each size and
# tool it prints the peak resident memory per byte of input and the input
# megabytes (10^6 bytes) read per second of wall time. The tools are built
# optimised (-c opt), as users run them; peak memory and time come from
# GNU time (Debian's `time` package). Asserts nothing.
#   scripts/bench/tool_memory.sh [MEGABYTES...]   (default: 1 10 100)
# Each run may use at most TESSEL_BENCH_MEMORY_KB of virtual memory
# (default 8000000), so that a tool that needs more fails with its
# out-of-memory error instead of pushing the machine into swap.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [ ! -x /usr/bin/time ]; then
  echo "tool_memory.sh: needs GNU time: apt-get install time" >&2
  exit 1
fi
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(1 10 100)
limit_kb="${TESSEL_BENCH_MEMORY_KB:-8000000}"
scripts/bazel.sh build -c opt //tools/parse //tools/saturate //tools/emit-c \
  //tools/run-sim 2>/dev/null
bin=$(bazel info -c opt bazel-bin 2>/dev/null)/tools
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Runs TOOL on INPUT with ARGS; prints one row of the table.
measure() {
  local label="$1" input="$2" tool="$3"
  shift 3
  local bytes status=0 peak_kb seconds speed
  bytes=$(stat -c %s "$input")
  (ulimit -v "$limit_kb"
   /usr/bin/time -f '%M %e' -o "$work/time" \
     "$bin/$tool/$tool" "$input" "$@" >/dev/null 2>"$work/stderr") || status=$?
  # The last line: GNU time first says how a failed command exited.
  read -r peak_kb seconds < <(tail -n 1 "$work/time")
  speed="-"
  if [ "$(echo "$seconds > 0" | bc -l)" -eq 1 ]; then
    speed=$(printf '%.2f' "$(echo "$bytes / 1000000 / $seconds" | bc -l)")
  fi
  printf '%-16s %7.1f MB %9.1f MB %8.1f %8.2f s %8s MB/s' "$label" \
    "$(echo "$bytes / 1000000" | bc -l)" \
    "$(echo "$peak_kb * 1024 / 1000000" | bc -l)" \
    "$(echo "$peak_kb * 1024 / $bytes" | bc -l)" "$seconds" "$speed"
  if [ "$status" -ne 0 ]; then
    printf '  exit %d: %s' "$status" "$(head -n 1 "$work/stderr" | cut -c1-70)"
  fi
  printf '\n'
}

# Each process's floor, the C++ runtime and the shared libraries: a tool's
# peak memory printing its --help. At 1 MB it is much of the per-byte
# figure.
printf 'floor (--help):'
for tool in parse saturate emit-c run-sim; do
  /usr/bin/time -f '%M' -o "$work/time" "$bin/$tool/$tool" --help >/dev/null
  printf ' %s %.1f MB' "$tool" "$(echo "$(tail -n 1 "$work/time") * 1024 / 1000000" | bc -l)"
done
printf '\n'
printf '%-16s %10s %12s %8s %10s %13s\n' "tool (input)" "input" \
  "peak memory" "per byte" "wall" "speed"
for mb in "${sizes[@]}"; do
  for kind in funcs procs kernels; do
    ext=tir
    [ "$kind" = kernels ] && ext=tk
    scripts/bench/large_input.py "$kind" "$mb" >"$work/$kind.$ext"
  done
  measure "parse (TIR)" "$work/funcs.tir" parse
  measure "parse (kernels)" "$work/kernels.tk" parse
  measure "saturate" "$work/funcs.tir" saturate
  measure "emit-c" "$work/procs.tir" emit-c
  measure "run-sim" "$work/procs.tir" run-sim --entry p0 --seed 1
  rm -f "$work"/*.tir "$work"/*.tk
done
