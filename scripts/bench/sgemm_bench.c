/* Times the scheduled SGEMM (schedule-check with scripts/bench/sgemm/
 * matmul.sched, then emit-c) against OpenBLAS's cblas_sgemm and MLIR's
 * simple CPU recipe (scripts/bench/mlir/matmul.sh) on the same inputs, in
 * one run, and prints GFLOP/s, each as a share of the core's FMA peak
 * (-DPEAK, GFLOP/s, measured by fma_peak.c in the same run), and the time
 * ratios.
 *
 * Built by scripts/bench/sgemm.sh with -DTESSEL_KERNEL="kernel.c" (whose
 * entry is `void matmul(const float *A, const float *B, float *C)`),
 * -DSIZE_M=, -DSIZE_N=, -DSIZE_K= and -DPEAK=, and linked with the MLIR
 * kernel's object. With -DWITH_EXO, also linked with Exo's SGEMM (exocc's
 * C for Exo's apps/x86/sgemm/sgemm.py), timed and compared the same way. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <cblas.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include TESSEL_KERNEL

#define MLIR_M SIZE_M
#define MLIR_N SIZE_N
#define MLIR_K SIZE_K
#include "mlir/mlir_matmul.h"

enum { M = SIZE_M, N = SIZE_N, K = SIZE_K };

#ifdef WITH_EXO
#include <stdint.h>
/* Exo's entry (exocc writes it in sgemm.h): C += A * B, row-major. */
void sgemm_exo(void *ctxt, int_fast32_t M, int_fast32_t N, int_fast32_t K,
               const float *A, const float *B, float *C);

/* Accumulates into C, as Exo's SGEMM does: the timed calls read C, one more
 * pass over it than the others make, and leave A * B times the number of
 * calls, so `exo_result` computes the result on a zeroed C apart. */
static void exo_matmul(const float *A, const float *B, float *C) {
  sgemm_exo(NULL, M, N, K, A, B, C);
}

static void exo_result(const float *A, const float *B, float *C) {
  for (long i = 0; i < (long)M * N; i++) C[i] = 0.0f;
  exo_matmul(A, B, C);
}
#endif

static void openblas_matmul(const float *A, const float *B, float *C) {
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, M, N, K, 1.0f, A, K,
              B, N, 0.0f, C, N);
}

/* The largest difference relative to the largest magnitude of OpenBLAS's
 * result: both round differently (blocking, fused multiply-adds). */
static double relative_diff(const float *x, const float *y) {
  double worst = 0.0, largest = 0.0;
  for (long i = 0; i < (long)M * N; i++) {
    double d = fabs((double)x[i] - (double)y[i]);
    if (d > worst) worst = d;
    if (fabs((double)y[i]) > largest) largest = fabs((double)y[i]);
  }
  return largest > 0.0 ? worst / largest : worst;
}

int main(void) {
  const int larger = (M * K > K * N ? M * K : K * N);
  float *A = aligned_floats(larger);
  float *B = aligned_floats(larger);
  float *C = aligned_floats((long)M * N);
  float *O = malloc(sizeof(float) * M * N);
  float *L = malloc(sizeof(float) * M * N);
  fill_inputs(A, B, larger);
  /* Single thread, as the scheduled kernel runs. */
  openblas_set_num_threads(1);
  double tessel = best_seconds(matmul, A, B, C);
  double openblas = best_seconds(openblas_matmul, A, B, O);
  double mlir = best_seconds(mlir_matmul, A, B, L);
  double gflops = 2.0 * M * N * K * 1e-9;
#ifdef WITH_EXO
  float *E = calloc((size_t)M * N, sizeof(float));
  double exo = best_seconds(exo_matmul, A, B, E);
  exo_result(A, B, E);
#endif
  printf("sgemm %4dx%4dx%4d: tessel %6.1f GFLOP/s (%3.0f%% of peak), "
         "OpenBLAS %6.1f (%3.0f%%, %s), MLIR %6.1f (%3.0f%%); "
         "tessel/OpenBLAS speed %.2fx, tessel/MLIR %.2fx "
         "(relative diff to OpenBLAS: tessel %.1e, MLIR %.1e)\n",
         M, N, K, gflops / tessel, 100.0 * gflops / tessel / PEAK,
         gflops / openblas, 100.0 * gflops / openblas / PEAK,
         openblas_get_corename(), gflops / mlir, 100.0 * gflops / mlir / PEAK,
         openblas / tessel, mlir / tessel, relative_diff(C, O),
         relative_diff(L, O));
#ifdef WITH_EXO
  printf("  Exo %6.1f GFLOP/s (%3.0f%%); tessel/Exo speed %.2fx, "
         "Exo/OpenBLAS %.2fx (relative diff to OpenBLAS: Exo %.1e)\n",
         gflops / exo, 100.0 * gflops / exo / PEAK, exo / tessel,
         openblas / exo, relative_diff(E, O));
  free(E);
#endif
  free(A);
  free(B);
  free(C);
  free(O);
  free(L);
  return 0;
}
