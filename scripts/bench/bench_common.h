/* What the C matmul benchmarks share: their inputs, and a kernel's best time
 * per call over five trials, each of calls repeated for at least 50 ms.
 * Included by matmul_bench.c and vector_matmul_bench.c. */
#ifndef TESSEL_SCRIPTS_BENCH_BENCH_COMMON_H_
#define TESSEL_SCRIPTS_BENCH_BENCH_COMMON_H_

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Deterministic inputs in [-0.5, 0.5): `count` elements of A and of B. */
static void fill_inputs(float *A, float *B, int count) {
  unsigned state = 12345u;
  for (int i = 0; i < count; i++) {
    state = state * 1103515245u + 12345u;
    A[i] = (float)(state >> 8) / (float)(1u << 24) - 0.5f;
    state = state * 1103515245u + 12345u;
    B[i] = (float)(state >> 8) / (float)(1u << 24) - 0.5f;
  }
}

/* The best time of several runs, each at least 50 ms long. */
static double best_seconds(void (*kernel)(const float *, const float *,
                                          float *),
                           const float *A, const float *B, float *C) {
  double best = INFINITY;
  for (int trial = 0; trial < 5; trial++) {
    int calls = 0;
    double start = now(), elapsed;
    do {
      kernel(A, B, C);
      calls++;
      elapsed = now() - start;
    } while (elapsed < 0.05);
    if (elapsed / calls < best) best = elapsed / calls;
  }
  return best;
}

/* `count` floats, the block aligned to a cache line of 64 bytes, as the
 * baselines' own buffers are (oneDNN's memories, memcpy's pages): malloc's
 * large blocks start 16 bytes past a page, where every 64-byte vector
 * spans two lines. */
static float *aligned_floats(long count) {
  size_t bytes = (sizeof(float) * (size_t)count + 63) / 64 * 64;
  float *p = aligned_alloc(64, bytes);
  if (p == NULL) {
    fprintf(stderr, "bench: out of memory\n");
    exit(1);
  }
  return p;
}

#endif /* TESSEL_SCRIPTS_BENCH_BENCH_COMMON_H_ */
