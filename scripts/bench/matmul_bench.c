/* Times Tessel's emit-c matmul against OpenBLAS's cblas_sgemm and a
 * hand-written reference C kernel, on the same inputs, in one run; with
 * -DWITH_MLIR (and the object of scripts/bench/mlir/matmul.sh linked in),
 * MLIR's simple CPU recipe as well. Tessel and the baselines are timed
 * alternately ($BENCH_ROUNDS rounds, bench_common.h): medians, and the
 * speed ratio's median and range over the rounds.
 *
 * Built by scripts/bench/matmul.sh and vectorize_matmul.sh with
 * -DTESSEL_KERNEL="kernel.c" (the output of emit-c for
 * testdata/kernels/matmul.tk) and -DSIZE=<size>; with -DTRANS_A=1 or
 * -DTRANS_B=1, for a kernel that reads A (scripts/bench/matmul/
 * matmul_tn.tk) or B (matmul_nt.tk) stored transposed, as BLAS's "TN" and
 * "NT" sgemm do. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <cblas.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include TESSEL_KERNEL

#ifndef TRANS_A
#define TRANS_A 0
#endif
#ifndef TRANS_B
#define TRANS_B 0
#endif
#if (TRANS_A || TRANS_B) && defined(WITH_MLIR)
#error "MLIR's recipe (mlir/recipe.mlir) multiplies untransposed matrices"
#endif
/* Element (row, col) of the logical A and B, whatever their storage. */
#define A_AT(row, col) (TRANS_A ? A[(col) * SIZE + (row)] : A[(row) * SIZE + (col)])
#define B_AT(row, col) (TRANS_B ? B[(col) * SIZE + (row)] : B[(row) * SIZE + (col)])

#ifdef WITH_MLIR
#define MLIR_M SIZE
#define MLIR_N SIZE
#define MLIR_K SIZE
#include "mlir/mlir_matmul.h"
#endif

/* The reference C kernel: the textbook triple loop, as a C programmer would
 * write it for row-major data (i-k-j order, so the inner loop is unit
 * stride when B is not transposed). */
static void reference_matmul(const float *A, const float *B, float *C) {
  for (int i = 0; i < SIZE; i++) {
    for (int j = 0; j < SIZE; j++) C[i * SIZE + j] = 0.0f;
    for (int k = 0; k < SIZE; k++) {
      float a = A_AT(i, k);
      for (int j = 0; j < SIZE; j++) C[i * SIZE + j] += a * B_AT(k, j);
    }
  }
}

static void openblas_matmul(const float *A, const float *B, float *C) {
  cblas_sgemm(CblasRowMajor, TRANS_A ? CblasTrans : CblasNoTrans,
              TRANS_B ? CblasTrans : CblasNoTrans, SIZE, SIZE, SIZE, 1.0f, A,
              SIZE, B, SIZE, 0.0f, C, SIZE);
}

static float max_abs_diff(const float *x, const float *y) {
  float worst = 0.0f;
  for (int i = 0; i < SIZE * SIZE; i++) {
    float d = fabsf(x[i] - y[i]);
    if (d > worst) worst = d;
  }
  return worst;
}

int main(void) {
  float *A = aligned_floats((long)SIZE * SIZE);
  float *B = aligned_floats((long)SIZE * SIZE);
  float *C = aligned_floats((long)SIZE * SIZE);
  float *R = aligned_floats((long)SIZE * SIZE);
  float *O = aligned_floats((long)SIZE * SIZE);
  fill_inputs(A, B, SIZE * SIZE);
  /* Tessel, OpenBLAS and MLIR's recipe alternately; the reference C, for
   * scale only, apart. */
  struct bench_call calls[] = {
      {matmul, A, B, C},
      {openblas_matmul, A, B, O},
#ifdef WITH_MLIR
      {mlir_matmul, A, B, aligned_floats((long)SIZE * SIZE)},
#endif
  };
  const int count = (int)(sizeof calls / sizeof calls[0]);
  const int rounds = bench_rounds();
  double *seconds = bench_doubles(count * rounds);
  interleaved_seconds(count, calls, rounds, seconds);
  double tessel = median_seconds(seconds, rounds, 0);
  double openblas = median_seconds(seconds, rounds, 1);
  double reference = best_seconds(reference_matmul, A, B, R);
  double flops = 2.0 * SIZE * SIZE * SIZE;
  printf("matmul%s %dx%dx%d f32: tessel %.2f GFLOP/s, reference C %.2f GFLOP/s, "
         "OpenBLAS %.2f GFLOP/s (%s kernel; medians of %d interleaved "
         "rounds)\n",
         TRANS_A ? " (A transposed)" : TRANS_B ? " (B transposed)" : "", SIZE,
         SIZE, SIZE, flops / tessel * 1e-9, flops / reference * 1e-9,
         flops / openblas * 1e-9, openblas_get_corename(), rounds);
  struct bench_ratio vs_openblas = speed_ratio(seconds, rounds, 0, 1);
  printf("  speed tessel/OpenBLAS %.2fx (rounds %.2f-%.2f), time ratio "
         "tessel/reference %.2f (max abs diff vs OpenBLAS %.2g, vs reference "
         "%.2g)\n",
         vs_openblas.median, vs_openblas.low, vs_openblas.high,
         tessel / reference, max_abs_diff(C, O), max_abs_diff(C, R));
#ifdef WITH_MLIR
  double mlir = median_seconds(seconds, rounds, 2);
  struct bench_ratio vs_mlir = speed_ratio(seconds, rounds, 0, 2);
  printf("  MLIR's recipe %.2f GFLOP/s, speed tessel/MLIR %.2fx (rounds "
         "%.2f-%.2f) (max abs diff vs OpenBLAS %.2g)\n",
         flops / mlir * 1e-9, vs_mlir.median, vs_mlir.low, vs_mlir.high,
         max_abs_diff(calls[2].c, O));
  free(calls[2].c);
#endif
  free(seconds);
  free(A);
  free(B);
  free(C);
  free(R);
  free(O);
  return 0;
}
