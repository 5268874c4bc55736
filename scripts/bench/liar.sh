#!/bin/bash
# LIAR's 16 kernels (testdata/kernels, Table I) through `saturate --target
# blas` and `--target pytorch` at their `# sizes:`, beside LIAR's Tables II
# and III. See scripts/bench/README.md, "LIAR's kernels".
#   scripts/bench/liar.sh [--target blas|pytorch]... [KERNEL...]
# Per kernel and target: the calls extracted at saturation; the first
# iteration whose extraction already has those calls (the run repeated with
# --iter-limit 1, 2, ...), with the e-nodes and the engine's time (search,
# apply, rebuild, extraction) up to it, and the first whose extraction is
# the final program; the iterations, e-nodes and time to saturation; the
# whole command's wall time; LIAR's steps and e-nodes.
set -euo pipefail
cd "$(dirname "$0")/../.."

targets=()
kernels=()
while (($#)); do
  case "$1" in
    --target) targets+=("$2"); shift 2 ;;
    *) kernels+=("$1"); shift ;;
  esac
done
((${#targets[@]})) || targets=(blas pytorch)
((${#kernels[@]})) || kernels=(2mm atax doitgen gemm gemver gesummv jacobi1d
  mvt 1mm axpy blur1d gemv memset slim-2mm stencil2d vsum)

# LIAR's figures (Tables II and III): steps and e-nodes at the last step.
# Table II's steps for gemm are not legible in our copy of the paper.
liar() {
  case "$1:$2" in
    blas:2mm) echo "6 34600" ;;       pytorch:2mm) echo "5 22800" ;;
    blas:atax) echo "7 39500" ;;      pytorch:atax) echo "7 19800" ;;
    blas:doitgen) echo "8 47000" ;;   pytorch:doitgen) echo "7 27500" ;;
    blas:gemm) echo "? 49500" ;;      pytorch:gemm) echo "6 26800" ;;
    blas:gemver) echo "5 16900" ;;    pytorch:gemver) echo "5 23800" ;;
    blas:gesummv) echo "7 42700" ;;   pytorch:gesummv) echo "7 31600" ;;
    blas:jacobi1d) echo "5 25300" ;;  pytorch:jacobi1d) echo "5 31300" ;;
    blas:mvt) echo "7 26900" ;;       pytorch:mvt) echo "7 16900" ;;
    blas:1mm) echo "8 44700" ;;       pytorch:1mm) echo "7 19900" ;;
    blas:axpy) echo "11 136" ;;       pytorch:axpy) echo "10 22700" ;;
    blas:blur1d) echo "6 53900" ;;    pytorch:blur1d) echo "5 21300" ;;
    blas:gemv) echo "7 34300" ;;      pytorch:gemv) echo "7 26300" ;;
    blas:memset) echo "11 5310" ;;    pytorch:memset) echo "11 2030" ;;
    blas:slim-2mm) echo "7 51800" ;;  pytorch:slim-2mm) echo "6 20300" ;;
    blas:stencil2d) echo "5 588" ;;   pytorch:stencil2d) echo "5 90600" ;;
    blas:vsum) echo "10 15900" ;;     pytorch:vsum) echo "10 17900" ;;
    *) echo "- -" ;;
  esac
}

scripts/bazel.sh build -c opt //tools/parse //tools/saturate
bin=$(scripts/bazel.sh info -c opt bazel-bin 2>/dev/null)
parse="$bin/tools/parse/parse"
saturate="$bin/tools/saturate/saturate"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The calls of a TIR file, counted ("blas.gemv=1 blas.memset=1"), and
# whether loops remain.
calls() {
  grep -oE '(blas|torch)\.[a-z]+' "$1" | sort | uniq -c |
    awk '{s = s (NR > 1 ? " " : "") $2 "=" $1} END {print s}'
  if grep -q ifold "$1"; then echo "(and loops)"; fi
}

# From --stats: iterations, e-nodes after iteration N (the last if 0), the
# engine's milliseconds up to it (extraction included), the stop reason.
stats() {
  jq -r --argjson n "$2" '.funcs[0] as $f | $f.iterations as $it
    | (if $n == 0 then ($it | length) else $n end) as $k
    | [($it | length), $it[$k - 1].e_nodes,
       ([$it[:$k][] | .search_seconds + .apply_seconds + .rebuild_seconds]
        | add) * 1000 + $f.extract_seconds * 1000, $f.stop] | @tsv' "$1"
}

printf '%-9s %-7s | %5s %7s %8s %5s | %5s %7s %8s %8s | %5s %7s | %s\n' \
  kernel target "sol" "e-nodes" "ms" "same" "sat" "e-nodes" "ms" "wall ms" \
  "LIAR" "e-nodes" "calls"
for kernel in "${kernels[@]}"; do
  tk="testdata/kernels/$kernel.tk"
  read -r -a sizes <<<"$(sed -n 's/^# sizes://p' "$tk")"
  "$parse" "$tk" "${sizes[@]}" --emit=terms -o "$work/in.tir"
  for target in "${targets[@]}"; do
    iterations_shown=""
    start=$(date +%s%N)
    "$saturate" "$work/in.tir" --target "$target" --stats "$work/all.json" \
      -o "$work/all.tir"
    wall=$(( ($(date +%s%N) - start) / 1000000 ))
    final=$(calls "$work/all.tir")
    read -r iterations nodes ms stop < <(stats "$work/all.json" 0)
    # Iterations to saturation; a run stopped by a limit is marked.
    [[ "$stop" == saturated ]] || iterations_shown="$iterations ($stop)"
    # The first iterations whose extraction has the final calls, and the
    # final program itself.
    solution=$iterations
    same=$iterations
    for ((k = 1; k < iterations; ++k)); do
      "$saturate" "$work/in.tir" --target "$target" --iter-limit "$k" \
        -o "$work/k.tir" 2>/dev/null
      if ((solution == iterations)) &&
         [[ "$(calls "$work/k.tir")" == "$final" ]]; then
        solution=$k
      fi
      if cmp -s "$work/k.tir" "$work/all.tir"; then
        same=$k
        break
      fi
    done
    read -r _ sol_nodes sol_ms _ < <(stats "$work/all.json" "$solution")
    read -r liar_steps liar_nodes < <(liar "$target" "$kernel")
    printf '%-9s %-7s | %5d %7d %8.2f %5d | %5s %7d %8.2f %8d | %5s %7s | %s\n' \
      "$kernel" "$target" "$solution" "$sol_nodes" "$sol_ms" "$same" \
      "${iterations_shown:-$iterations}" \
      "$nodes" "$ms" "$wall" "$liar_steps" "$liar_nodes" "${final//$'\n'/ }"
  done
done
