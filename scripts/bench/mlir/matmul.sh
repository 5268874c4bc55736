# Sourced by the matmul benchmarks that compare with MLIR: installs Debian's
# MLIR 15 and LLVM 15 when they are missing, and defines
#   mlir_matmul_object M N K OUT.o
# which writes C = A B (f32, row-major, M x K times K x N, C zeroed first)
# as linalg.fill and linalg.matmul on memrefs, runs MLIR's simple CPU recipe
# on it (scripts/bench/mlir/recipe.mlir: tile 8, 32, 1, vectorize, hoist C's
# tile out of the k loop, contractions lowered to outer products, then to
# LLVM), and compiles it ahead of time with LLVM 15's opt -O3 and llc -O3
# for this core. Partial tiles (sizes that 8 and 32 do not divide) stay
# linalg.matmul on dynamic shapes, which the recipe does not vectorize: they
# become loops. The object exports `_mlir_ciface_mlir_sgemm` (its C interface:
# scripts/bench/mlir/mlir_matmul.h).
mlir_bin=/usr/lib/llvm-15/bin
mlir_missing=()
[ -x "$mlir_bin/mlir-opt" ] || mlir_missing+=(mlir-15-tools)
[ -x "$mlir_bin/llc" ] || mlir_missing+=(llvm-15)
if ((${#mlir_missing[@]})); then
  echo "bench: installing ${mlir_missing[*]} (the MLIR baseline)" >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    "${mlir_missing[@]}" >/dev/null
fi

mlir_matmul_object() {
  local m=$1 n=$2 k=$3 out=$4
  local dir
  dir=$(mktemp -d)
  local a="memref<${m}x${k}xf32>" b="memref<${k}x${n}xf32>" c="memref<${m}x${n}xf32>"
  {
    echo "func.func @mlir_sgemm(%A: $a, %B: $b, %C: $c) attributes {llvm.emit_c_interface} {"
    echo "  %zero = arith.constant 0.0 : f32"
    echo "  linalg.fill ins(%zero : f32) outs(%C : $c)"
    echo "  linalg.matmul ins(%A, %B : $a, $b) outs(%C : $c)"
    echo "  return"
    echo "}"
    cat "$(dirname "${BASH_SOURCE[0]}")/recipe.mlir"
  } > "$dir/matmul.mlir"
  # The recipe; then the transform script dropped (MLIR 15's interpreter
  # leaves it in the module); then the lowering to LLVM.
  "$mlir_bin/mlir-opt" "$dir/matmul.mlir" --test-transform-dialect-interpreter \
    --canonicalize --test-linalg-hoisting=test-hoist-redundant-transfers \
    --test-vector-contraction-lowering=vector-outerproduct --canonicalize \
    -o "$dir/vector.mlir"
  awk '/^  transform.sequence/ { skip = 1 } !skip { print }
       skip && /^  }$/ { skip = 0 }' "$dir/vector.mlir" > "$dir/kernel.mlir"
  "$mlir_bin/mlir-opt" "$dir/kernel.mlir" --convert-vector-to-scf=full-unroll=true \
    --convert-linalg-to-loops --canonicalize --lower-affine --convert-scf-to-cf --convert-vector-to-llvm \
    --convert-memref-to-llvm --convert-arith-to-llvm --convert-func-to-llvm \
    --reconcile-unrealized-casts -o "$dir/llvm.mlir"
  "$mlir_bin/mlir-translate" --mlir-to-llvmir "$dir/llvm.mlir" -o "$dir/kernel.ll"
  "$mlir_bin/opt" -O3 "$dir/kernel.ll" -o "$dir/kernel.bc"
  "$mlir_bin/llc" -O3 -mcpu=native -filetype=obj "$dir/kernel.bc" -o "$out"
  rm -rf "$dir"
}
