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
tests=()
while (($#)); do
  case "$1" in
    --egg) egg_dir="$2"; shift 2 ;;
    --mode) mode="$2"; args+=("$1" "$2"); shift 2 ;;
    --repeat) repeat="$2"; shift 2 ;;
    -*) args+=("$1"); shift ;;
    *) args+=("$1"); tests+=("$1"); shift ;;
  esac
done

scripts/bazel.sh build -c opt //scripts/bench/egg:egg_bench
ours_bench=(bazel-bin/scripts/bench/egg/egg_bench --dir scripts/bench/egg)
if [[ -z "$egg_dir" ]]; then
  exec "${ours_bench[@]}" --repeat "$repeat" "${args[@]}"
fi

# egg's own tests: POPL mode sets egg's limits through its environment
# variables and needs the one-line patch of README.md that drops test_fn!'s
# goal hook when EGG_NO_GOAL_HOOK is set.
if [[ "$mode" == popl ]]; then
  export EGG_NO_GOAL_HOOK=1 EGG_ITER_LIMIT=100 EGG_NODE_LIMIT=1000000 \
    EGG_TIME_LIMIT=1000
fi
if ((${#tests[@]} == 0)); then
  mapfile -t tests < <(sed -n 's/^(test \([a-z0-9_]*\).*/\1/p' \
    scripts/bench/egg/math.tests scripts/bench/egg/lambda.tests)
fi
options=()
[[ "$mode" == popl ]] || options=(--mode "$mode")
binaries=()
for suite in math lambda; do
  binary=$(find "$egg_dir/target/release/deps" -maxdepth 1 -type f \
    -executable -name "$suite-*" | head -n 1)
  [[ -n "$binary" ]] || { echo "no $suite test binary in $egg_dir" >&2; exit 1; }
  binaries+=("$binary")
done

# One run of test $1 by egg (its binary of the other suite selects
# nothing), as a line like egg_bench's.
run_egg() {
  for binary in "${binaries[@]}"; do
    "$binary" --nocapture --test-threads=1 --exact "$1" 2>&1 | awk '
      /^test / { name = $2 }
      /Stop reason:/ { sub(/.*Stop reason: /, ""); stop = $0 }
      /Iterations:/ { iterations = $2 }
      /Egraph size:/ { nodes = $3; classes = $5; memo = $7 }
      /Total time:/ {
        printf "%-26s %-24s %4d %8d %7d %8d total %.6f s\n", name, stop,
               iterations, nodes, classes, memo, $3
      }'
  done
}

# The fastest run of each test, in order of first appearance; the time is
# field $1 of a line, counted from the end if negative.
fastest() {
  awk -v field="$1" '{
    t = field > 0 ? $field : $(NF + field + 1)
    if (NF < 9 || t !~ /^[0-9.]+$/) next
    if (!($1 in best)) order[++n] = $1
    if (!($1 in best) || t + 0 < time[$1]) { best[$1] = $0; time[$1] = t + 0 }
  }
  END { for (i = 1; i <= n; ++i) print best[order[i]] }'
}

# Each test runs on Tessel and right after on egg, each in a process of its
# own, so that both engines see the same phase of a virtual machine whose
# speed drifts by 20-50 % over minutes; each keeps its fastest of N rounds.
# egg_bench exits with status 1 when a run differs from egg's figures; the
# rounds go on, and so does this script's exit status.
ours=$(mktemp)
theirs=$(mktemp)
trap 'rm -f "$ours" "$theirs"' EXIT
status=0
for ((r = 0; r < repeat; ++r)); do
  echo "round $((r + 1)) of $repeat" >&2
  for test in "${tests[@]}"; do
    "${ours_bench[@]}" "${options[@]}" "$test" >> "$ours" || status=1
    run_egg "$test" >> "$theirs"
  done
done
echo "Tessel, mode $mode, fastest of $repeat rounds:"
grep -m 1 '^test ' "$ours"
fastest 10 < "$ours" | tee "$ours.best"
mv "$ours.best" "$ours"
echo
echo "egg ($egg_dir), mode $mode, fastest of $repeat rounds:"
fastest -2 < "$theirs" | tee "$theirs.best"
mv "$theirs.best" "$theirs"

# Both engines' totals per test, in the order of our table; the ratio is
# egg's time over ours (how many times faster Tessel is).
echo
echo "side by side (total seconds; egg / Tessel):"
awk 'NR == FNR { egg[$1] = $(NF - 1); next }
     $1 in egg {
       printf "%-26s tessel %9.6f egg %9.6f  %s\n", $1, $10, egg[$1],
              ($10 > 0 ? sprintf("%.1fx", egg[$1] / $10) : "-")
     }' "$theirs" "$ours"
awk 'NR == FNR { egg[$1] = $(NF - 1); next }
     $1 in egg { ours += $10; eggs += egg[$1] }
     END { printf "total: tessel %.3f s, egg %.3f s, %.1fx\n", ours, eggs, eggs / ours }' \
  "$theirs" "$ours"
((status == 0)) || echo "some runs differ from egg's figures (DIFFERS above)"
exit "$status"
