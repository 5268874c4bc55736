#!/bin/bash
# egg's math and lambda test suites on Tessel's e-graph engine, beside the
# figures egg 0.9.5 reported for them (scripts/bench/egg/*.tests), and, with
# --egg DIR, beside egg itself run in the same invocation, joined into one
# table of both times and their ratio. See scripts/bench/README.md.
#   scripts/bench/egg.sh [--mode popl|test] [--repeat N] [--egg DIR] [TEST...]
set -euo pipefail
cd "$(dirname "$0")/../.."

mode=popl
repeat=1
egg_dir=""
args=()
while (($#)); do
  case "$1" in
    --egg) egg_dir="$2"; shift 2 ;;
    --mode) mode="$2"; args+=("$1" "$2"); shift 2 ;;
    --repeat) repeat="$2"; args+=("$1" "$2"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

scripts/bazel.sh build -c opt //scripts/bench/egg:egg_bench
ours=$(mktemp)
theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT
bazel-bin/scripts/bench/egg/egg_bench --dir scripts/bench/egg "${args[@]}" |
  tee "$ours"

[[ -n "$egg_dir" ]] || exit 0
# egg's own tests: POPL mode sets egg's limits through its environment
# variables and needs the one-line patch of README.md that drops test_fn!'s
# goal hook when EGG_NO_GOAL_HOOK is set.
if [[ "$mode" == popl ]]; then
  export EGG_NO_GOAL_HOOK=1 EGG_ITER_LIMIT=100 EGG_NODE_LIMIT=1000000 \
    EGG_TIME_LIMIT=1000
fi
tests=()
for arg in "${args[@]}"; do [[ "$arg" == -* || "$arg" =~ ^[0-9]+$ ]] || tests+=("$arg"); done
echo
echo "egg ($egg_dir), mode $mode, best of $repeat:"
for suite in math lambda; do
  binary=$(find "$egg_dir/target/release/deps" -maxdepth 1 -type f \
    -executable -name "$suite-*" | head -n 1)
  [[ -n "$binary" ]] || { echo "no $suite test binary in $egg_dir" >&2; exit 1; }
  filter=(--skip ematching_bench)
  # Only the tests asked for (all if none): a name of the other suite
  # selects nothing here.
  if ((${#tests[@]})); then filter=(--exact "${tests[@]}"); fi
  for ((r = 0; r < repeat; ++r)); do
    "$binary" --nocapture --test-threads=1 "${filter[@]}" 2>&1 | awk '
      /^test / { name = $2 }
      /Stop reason:/ { sub(/.*Stop reason: /, ""); stop = $0 }
      /Iterations:/ { iterations = $2 }
      /Egraph size:/ { nodes = $3; classes = $5; memo = $7 }
      /Total time:/ {
        printf "%-26s %-24s %4d %8d %7d %8d total %.6f s\n", name, stop,
               iterations, nodes, classes, memo, $3
      }'
  done
done | awk '# the fastest run of each test, in order of first appearance
  !($1 in best) { order[++n] = $1 }
  !($1 in best) || $(NF - 1) < time[$1] { best[$1] = $0; time[$1] = $(NF - 1) }
  END { for (i = 1; i <= n; ++i) print best[order[i]] }' | tee "$theirs"

# Both engines' totals per test, in the order of our table; the ratio is
# egg's time over ours (how many times faster Tessel is).
echo
echo "side by side (total seconds; egg / Tessel):"
awk 'NR == FNR { egg[$1] = $(NF - 1); next }
     $1 in egg && $10 ~ /^[0-9.]+$/ {
       printf "%-26s tessel %9.6f egg %9.6f  %s\n", $1, $10, egg[$1],
              ($10 > 0 ? sprintf("%.1fx", egg[$1] / $10) : "-")
     }' "$theirs" "$ours"
