#!/bin/bash
# Generates Exo's own SGEMM (Exo's apps/x86/sgemm/sgemm.py, scheduled and
# compiled to C by Exo) for `sgemm.sh --exo OUT`, and prints how long Exo
# took: the baseline issue 21 measures schedule-check's speed against.
# EXO is a checkout of Exo's sources (github.com/exo-lang/exo); Exo itself
# is imported from Python's path (`pip install exo-lang`), or else from
# EXO/src, with its dependencies (PySMT, asdl-adt, yapf, z3) on PYTHONPATH.
# PYTHON picks the interpreter (default python3).
#   scripts/bench/exo_sgemm.sh EXO OUT
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: scripts/bench/exo_sgemm.sh EXO OUT" >&2
  exit 2
fi
exo_src="$1"
out="$2"
python="${PYTHON:-python3}"
app="$exo_src/apps/x86/sgemm/sgemm.py"
if [ ! -f "$app" ]; then
  echo "exo_sgemm: error: no Exo SGEMM at '$app'" >&2
  exit 2
fi
if ! "$python" -c 'import exo' 2>/dev/null; then
  export PYTHONPATH="$exo_src/src${PYTHONPATH:+:$PYTHONPATH}"
fi
if ! "$python" -c 'import exo' 2>/dev/null; then
  echo "exo_sgemm: error: $python cannot import exo (nor from $exo_src/src)" >&2
  exit 1
fi
mkdir -p "$out"
start=$(date +%s.%N)
"$python" -m exo.main -o "$out" --stem sgemm "$app" >/dev/null
printf 'Exo scheduled and compiled its SGEMM in %.1f s: %s/sgemm.c\n' \
  "$(echo "$(date +%s.%N) - $start" | bc -l)" "$out"
