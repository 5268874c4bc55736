#!/bin/bash
# The malformed-input sweep: every tool, end to end, on broken versions of
# the inputs the golden tests give it (docs/testing.md, "Malformed input").
#   fuzz-inputs.sh [--asan] [--corpus DIR] [SWEEP OPTION]...
# Builds the tools (--asan: with AddressSanitizer and UBSan, --config=asan,
# in an output base of its own so that the normal build stays cached:
# $FUZZ_INPUTS_ASAN_BASE, default ~/.cache/tessel/asan-output-base), and,
# unless DIR/cases.txt exists, records every tool call of the golden suites
# into DIR (default: a new temporary folder): its command line and copies of
# its input files, intermediate files and stdin included. Then it runs each
# call on the empty file, truncations (line ends, random bytes) and random
# edits of each input (a line or token deleted, duplicated or swapped; a
# number made 0, -1, 2^31, 2^63, 2^64, 1e308, 1e-320, nan, inf; a name made
# unbound; types' dimensions swapped), strategy, schedule, placement and
# rules files included, and with extreme numbers on its command line
# (-D N=..., --seed ...), each with a timeout, and reports any run that
# crashes, hangs, trips a sanitizer, exits other than 0, 1 or 2, exits 1
# without an `error:` located in the input, or writes TIR that parse
# rejects or C that the C compiler rejects (where the unedited input's
# output compiles). SWEEP OPTIONs (scripts/fuzz_inputs.py sweep --help):
#   --seed N             the random edits (default 1)
#   --mutations N        random edits of each call's main input (default 40)
#   --cases-per-tool N   a sample of each tool's calls (default all)
#   --only TOOL...       these tools only
#   --jobs J --timeout S --out DIR (the findings' repros)
# Prints the runs per tool and a FINDING line per tool and kind of problem,
# naming a folder with the mutated input, the command and its stderr; exits
# 1 when there are findings. testdata/fuzz-inputs/ runs a fixed slice in CI.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
asan=0
corpus=""
while [ $# -gt 0 ]; do
  case "$1" in
    --asan) asan=1; shift ;;
    --corpus) corpus="$2"; shift 2 ;;
    *) break ;;
  esac
done
cd "$repo"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/tessel"
if [ "$asan" = 1 ]; then
  bazel=(bazel "--output_base=${FUZZ_INPUTS_ASAN_BASE:-$cache/asan-output-base}")
  flags=(--config=asan --symlink_prefix=/ "--disk_cache=$cache/bazel-disk-cache")
else
  bazel=(bazel)
  flags=("--disk_cache=$cache/bazel-disk-cache")
fi
"${bazel[@]}" build "${flags[@]}" //tools/... >&2
bin="$("${bazel[@]}" info "${flags[@]:0:1}" bazel-bin 2>/dev/null)"
corpus="${corpus:-$(mktemp -d)}"
tools="$corpus/bin-$([ "$asan" = 1 ] && echo asan || echo normal)"
mkdir -p "$tools"
for tool in "$repo"/tools/*/; do
  name="$(basename "$tool")"
  ln -sfn "$bin/tools/$name/$name" "$tools/$name"
done
if [ ! -f "$corpus/cases.txt" ]; then
  # The suites' slowest tests (whole kernel corpora, size sweeps, memory
  # limits) add time and few new calls.
  /usr/bin/python3 "$here/fuzz_inputs.py" capture "$tools" "$corpus" \
    parse saturate schedule-check polysimd vectorize bufferize emit-c \
    emit-cs1 run-sim \
    --filter-out 'kernels.test|sizes.test|random_kernels|conv_sizes|engine_|out_of_memory|large|sgemm' \
    >&2 || true
fi
exec /usr/bin/python3 "$here/fuzz_inputs.py" sweep "$corpus/cases.txt" \
  --tools "$tools" "$@"
