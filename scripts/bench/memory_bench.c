/* Times one memory-bound kernel of testdata/vectorize/Inputs (copy2d,
 * transpose2d, rowred2d, colred2d) as two C translations, in one run:
 * vectorize's (parse | vectorize | emit-c) and the scalar loops' (parse |
 * emit-c),
 * against memcpy of the kernel's input, the machine's copy bandwidth at
 * that size. Figures are bytes read and written per second.
 *
 * Built by scripts/bench/vectorize_memory.sh with -DNAME="kernel", -DM, -DN,
 * -DOUT (the elements the kernel writes) and the two kernels linked in as
 * kernel_vector and kernel_scalar (emit-c's `void NAME(const float *A,
 * float *B)`, renamed). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"

void kernel_vector(const float *restrict A, float *restrict B);
void kernel_scalar(const float *restrict A, float *restrict B);

static void run_vector(const float *A, const float *unused, float *B) {
  (void)unused;
  kernel_vector(A, B);
}

static void run_scalar(const float *A, const float *unused, float *B) {
  (void)unused;
  kernel_scalar(A, B);
}

static void run_memcpy(const float *A, const float *unused, float *B) {
  (void)unused;
  memcpy(B, A, sizeof(float) * M * N);
}

int main(void) {
  float *A = aligned_floats((long)M * N);
  float *scratch = aligned_floats((long)M * N);
  float *V = aligned_floats((long)M * N);
  float *S = aligned_floats((long)M * N);
  fill_inputs(A, scratch, M * N);
  const double bytes = sizeof(float) * ((double)M * N + OUT);
  const double copied = 2.0 * sizeof(float) * M * N;
  double vector = best_seconds(run_vector, A, NULL, V);
  double scalar = best_seconds(run_scalar, A, NULL, S);
  double copy = best_seconds(run_memcpy, A, NULL, scratch);
  float worst = 0.0f;
  for (int i = 0; i < OUT; i++) {
    float d = fabsf(V[i] - S[i]);
    if (d > worst) worst = d;
  }
  double v = bytes / vector * 1e-9, s = bytes / scalar * 1e-9,
         c = copied / copy * 1e-9;
  printf("%-11s %5dx%-5d (%3.0f KiB): vectorize %6.1f GB/s, scalar C %6.1f "
         "GB/s, memcpy %6.1f GB/s; vectorize/memcpy %.2f, vectorize/scalar "
         "%.2f (max abs diff %.2g)\n",
         NAME, M, N, bytes / 1024, v, s, c, v / c, v / s, worst);
  free(A);
  free(scratch);
  free(V);
  free(S);
  return 0;
}
