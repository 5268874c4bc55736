/* The C interface of the MLIR matmul that scripts/bench/mlir/matmul.sh
 * compiles (`llvm.emit_c_interface`: each memref passed as a pointer to its
 * descriptor), and `mlir_matmul`, a kernel of the benchmarks' signature
 * over row-major arrays of the sizes MLIR_M x MLIR_K, MLIR_K x MLIR_N and
 * MLIR_M x MLIR_N. */
#ifndef TESSEL_SCRIPTS_BENCH_MLIR_MLIR_MATMUL_H_
#define TESSEL_SCRIPTS_BENCH_MLIR_MLIR_MATMUL_H_

#include <stdint.h>

struct mlir_memref2d {
  float *allocated;
  float *aligned;
  int64_t offset;
  int64_t sizes[2];
  int64_t strides[2];
};

void _mlir_ciface_mlir_sgemm(struct mlir_memref2d *A, struct mlir_memref2d *B,
                         struct mlir_memref2d *C);

static struct mlir_memref2d mlir_row_major(const float *data, int64_t rows,
                                           int64_t cols) {
  struct mlir_memref2d m = {(float *)data, (float *)data, 0, {rows, cols},
                            {cols, 1}};
  return m;
}

static void mlir_matmul(const float *A, const float *B, float *C) {
  struct mlir_memref2d a = mlir_row_major(A, MLIR_M, MLIR_K);
  struct mlir_memref2d b = mlir_row_major(B, MLIR_K, MLIR_N);
  struct mlir_memref2d c = mlir_row_major(C, MLIR_M, MLIR_N);
  _mlir_ciface_mlir_sgemm(&a, &b, &c);
}

#endif /* TESSEL_SCRIPTS_BENCH_MLIR_MLIR_MATMUL_H_ */
