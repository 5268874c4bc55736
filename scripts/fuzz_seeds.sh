# Sourced by fuzz-vectorize.sh and fuzz-blas.sh, whose command line is
# `FIRST_SEED COUNT [WORK_DIR]`: reads it into `first`, `count` and `work`
# (a new temporary folder by default), and defines
#   seed_dir SEED     sets `dir` to WORK_DIR/seedSEED, emptied: a seed's
#                     folder is the fuzzer's own, so that no file of an
#                     earlier run (another kernel's outputs) is taken for
#                     this one's;
#   draw_kernel SEED  sets `kernel` (a .tk path) and `defines` (its -D
#                     flags): scripts/random_kernel.py's kernel of SEED
#                     (written to `dir`), or one of the examples, the
#                     benchmarks' and the vectorize goldens' kernels
#                     (convolutions, transposes, reductions) at sizes
#                     scripts/random_strategy.py draws.
# Needs `here`, the scripts folder.
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $(basename "$0") FIRST_SEED COUNT [WORK_DIR]" >&2
  exit 2
fi
first="$1" count="$2"
work="${3:-$(mktemp -d)}"
mkdir -p "$work"

fuzz_kernel_dirs=("$here/../testdata/kernels" "$here/bench/conv"
                  "$here/bench/matmul" "$here/../testdata/vectorize/Inputs")

seed_dir() {
  dir="$work/seed$1"
  rm -rf "$dir" && mkdir -p "$dir"
}

draw_kernel() {
  local seed="$1"
  { read -r kernel; read -r -a defines; } < <(
    /usr/bin/python3 "$here/random_strategy.py" kernel "$seed" \
      "${fuzz_kernel_dirs[@]}")
  if [ "$kernel" = random ]; then
    kernel="$dir/kernel.tk"
    /usr/bin/python3 "$here/random_kernel.py" "$seed" > "$kernel"
  fi
}
