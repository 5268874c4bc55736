# Sourced by fuzz-vectorize.sh and fuzz-blas.sh: the kernel a seed draws.
# draw_kernel SEED DIR sets `kernel` (a .tk path) and `defines` (its -D
# flags): scripts/random_kernel.py's kernel of SEED (written to DIR), or one
# of the examples, the benchmarks' and the vectorize goldens' kernels
# (convolutions, transposes, reductions) at sizes scripts/random_strategy.py
# draws.
fuzz_kernel_dirs=("$here/../testdata/kernels" "$here/bench/conv"
                  "$here/bench/matmul" "$here/../testdata/vectorize/Inputs")

draw_kernel() {
  local seed="$1" dir="$2"
  { read -r kernel; read -r -a defines; } < <(
    /usr/bin/python3 "$here/random_strategy.py" kernel "$seed" \
      "${fuzz_kernel_dirs[@]}")
  if [ "$kernel" = random ]; then
    kernel="$dir/kernel.tk"
    /usr/bin/python3 "$here/random_kernel.py" "$seed" > "$kernel"
  fi
}
