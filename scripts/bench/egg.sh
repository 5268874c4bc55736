#!/bin/bash
# egg's math and lambda test suites on Tessel's e-graph engine, beside the
# figures egg 0.9.5 reported for them (scripts/bench/egg/*.tests), and, with
# --egg DIR, beside egg itself run in the same invocation. See
# scripts/bench/README.md.
#   scripts/bench/egg.sh [--mode popl|test] [--repeat N] [--egg DIR] [TEST...]
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=popl
egg_dir=""
args=()
while (($#)); do
  case "$1" in
    --egg) egg_dir="$2"; shift 2 ;;
    --mode) mode="$2"; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

scripts/bazel.sh build -c opt //scripts/bench/egg:egg_bench
bazel-bin/scripts/bench/egg/egg_bench --dir scripts/bench/egg "${args[@]}"

[[ -n "$egg_dir" ]] || exit 0
# egg's own tests: POPL mode sets egg's limits through its environment
# variables and needs the one-line patch of README.md that drops test_fn!'s
# goal hook when EGG_NO_GOAL_HOOK is set.
if [[ "$mode" == popl ]]; then
  export EGG_NO_GOAL_HOOK=1 EGG_ITER_LIMIT=100 EGG_NODE_LIMIT=1000000 \
    EGG_TIME_LIMIT=1000
fi
tests=()
for arg in "${args[@]}"; do [[ "$arg" == -* ]] || tests+=("$arg"); done
echo
echo "egg ($egg_dir), mode $mode:"
for suite in math lambda; do
  binary=$(find "$egg_dir/target/release/deps" -maxdepth 1 -type f \
    -executable -name "$suite-*" | head -n 1)
  [[ -n "$binary" ]] || { echo "no $suite test binary in $egg_dir" >&2; exit 1; }
  filter=(--skip ematching_bench)
  # Only the tests asked for (all if none): a name of the other suite
  # selects nothing here.
  if ((${#tests[@]})); then filter=(--exact "${tests[@]}"); fi
  "$binary" --nocapture --test-threads=1 "${filter[@]}" 2>&1 | awk '
    /^test / { name = $2 }
    /Stop reason:/ { sub(/.*Stop reason: /, ""); stop = $0 }
    /Iterations:/ { iterations = $2 }
    /Egraph size:/ { nodes = $3; classes = $5; memo = $7 }
    /Total time:/ {
      printf "%-26s %-24s %4d %8d %7d %8d total %.3f s\n", name, stop,
             iterations, nodes, classes, memo, $3
    }'
done
