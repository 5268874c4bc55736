#!/bin/bash
# Coverage-guided fuzzing of Tessel's readers with clang's libFuzzer,
# AddressSanitizer and UBSan (libs/fuzz/*_fuzzer.cc), seeded with the
# project's own test inputs.
#   scripts/fuzz.sh kernel|tir|npy|egraph|placement|schedule [SECONDS] [WORK_DIR]
# A crash leaves its input in WORK_DIR (crash-*); replay it with the binary.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: fuzz.sh kernel|tir|npy|egraph|placement|schedule [SECONDS] [WORK_DIR]}"
seconds="${2:-60}"
extra=()
generated=()  # targets/ rules (RULE:FILE) whose generated C++ is compiled in
work="${3:-$(mktemp -d)}"
mkdir -p "$work/corpus"
scripts/setup.sh
if ! dpkg-query -W -f='${Status}' clang-14 libclang-rt-14-dev 2>/dev/null |
    grep -q "ok installed"; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    clang-14 libclang-rt-14-dev >/dev/null
fi

case "$target" in
  kernel) libs=(support sexpr cli ir poly effects verify kernel); seeds=(testdata/kernels/*.tk testdata/parse/*.tk) ;;
  tir) libs=(support sexpr ir poly effects verify); seeds=(testdata/*/*.tir) ;;
  npy) libs=(support sexpr ir poly effects verify npy); seeds=(libs/npy/testdata/*.npy) ;;
  egraph) libs=(support sexpr egraph); seeds=(libs/egraph/testdata/fuzz/*.eg) ;;
  placement) libs=(support sexpr ir poly effects verify placement); seeds=(testdata/polysimd/Inputs/*.place) ;;
  # The reader resolves target forms (embedded by a generated source);
  # `equiv` applies primitives.
  schedule) libs=(support sexpr ir poly effects verify primitives schedule); extra=(targets/target_forms.cc); generated=(target_form_sources:target_form_files.cc); seeds=(testdata/schedule-check/Inputs/*.sched) ;;
  *) echo "fuzz: error: unknown target '$target' (kernel, tir, npy, egraph, placement or schedule)" >&2; exit 2 ;;
esac
sources=("${extra[@]}")
# libs/ir reads the target libraries embedded by a generated source.
if [[ " ${libs[*]} " == *" ir "* ]]; then
  generated+=(library_sources:libraries.cc)
fi
for rule_file in "${generated[@]}"; do
  scripts/bazel.sh build "//targets:${rule_file%%:*}" >/dev/null
  sources+=("bazel-bin/targets/${rule_file#*:}")
done
for lib in "${libs[@]}"; do
  for file in libs/"$lib"/*.cc; do
    case "$file" in *_test.cc | */testing.cc) ;; *) sources+=("$file") ;; esac
  done
done
for seed in "${seeds[@]}"; do  # seeds from different folders share names
  cp "$seed" "$work/corpus/$(echo "$seed" | tr / _)"
done
# shellcheck disable=SC2046
clang++-14 -std=c++20 -O1 -g -I. -fsanitize=fuzzer,address,undefined \
  -fno-sanitize-recover=undefined "libs/fuzz/${target}_fuzzer.cc" \
  "${sources[@]}" -o "$work/${target}_fuzzer" \
  $(pkg-config --libs absl_status absl_statusor absl_strings absl_str_format \
    absl_flat_hash_map absl_flat_hash_set) -lisl -lgmp -lz3
cd "$work"
"./${target}_fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 \
  -print_final_stats=1 corpus 2>&1 | grep -E "^#[0-9]+.*DONE|stat::|ERROR|SUMMARY|crash-" || true
shopt -s nullglob
failures=(crash-* timeout-*)
if ((${#failures[@]})); then
  echo "fuzz: $target: failures found:" "${failures[@]}" >&2
  exit 1
fi
echo "fuzz: $target: no crash in ${seconds}s (corpus and binary in $work)"
