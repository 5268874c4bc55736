/* Times emit-c's vector-level matmul (testdata/run-sim/vector_matmul.tir
 * scaled: 4x4 tiles, contract over 4-wide slices of k) against emit-c's
 * loop-level matmul (its scalar loops), on the same inputs, in one run; the
 * two must agree bit for bit (contract sums k in order, as the loops do).
 *
 * Built by scripts/bench/vector_matmul.sh with -DTESSEL_KERNELS="k.c" (the
 * emit-c output of both, procs @vmatmul and @matmul) and -DSIZE=<size>. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_common.h"
#include TESSEL_KERNELS

int main(void) {
  float *A = malloc(sizeof(float) * SIZE * SIZE);
  float *B = malloc(sizeof(float) * SIZE * SIZE);
  float *C = malloc(sizeof(float) * SIZE * SIZE);
  float *R = malloc(sizeof(float) * SIZE * SIZE);
  fill_inputs(A, B, SIZE * SIZE);
  double vector = best_seconds(vmatmul, A, B, C);
  double loops = best_seconds(matmul, A, B, R);
  double flops = 2.0 * SIZE * SIZE * SIZE;
  printf("  matmul %dx%dx%d f32: vector level %.2f GFLOP/s, loop level %.2f "
         "GFLOP/s (%.1fx); same bits: %s\n",
         SIZE, SIZE, SIZE, flops / vector * 1e-9, flops / loops * 1e-9,
         loops / vector,
         memcmp(C, R, sizeof(float) * SIZE * SIZE) == 0 ? "yes" : "NO");
  free(A);
  free(B);
  free(C);
  free(R);
  return 0;
}
