// MLIR's simple CPU recipe for a matmul (the MLIR structured code generation
// paper's tile + vectorize + outer-product lowering): C's zeroing tiled by
// 8 x 32 and the matmul by 8 x 32 x 1, then every tile vectorized. Applied
// by MLIR 15's transform interpreter (scripts/bench/mlir/matmul.sh).
transform.sequence {
^bb1(%module: !pdl.operation):
  %fill = transform.structured.match ops{["linalg.fill"]} in %module
  %fill_tile, %fill_loops:2 = transform.structured.tile %fill [8, 32]
  %matmul = transform.structured.match ops{["linalg.matmul"]} in %module
  %matmul_tile, %matmul_loops:3 = transform.structured.tile %matmul [8, 32, 1]
  %func = get_closest_isolated_parent %matmul_tile
  transform.structured.vectorize %func
}
