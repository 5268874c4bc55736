/* What the C benchmarks share: their inputs, a kernel's best time per call
 * over five trials, each of calls repeated for at least 50 ms, and the
 * median times of kernels timed alternately over several rounds with the
 * spread of their ratios. */
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

/* A kernel and its arguments, for interleaved_seconds. */
struct bench_call {
  void (*kernel)(const float *, const float *, float *);
  const float *a, *b;
  float *c;
};

/* The rounds interleaved_seconds runs: $BENCH_ROUNDS, or 7. */
static inline int bench_rounds(void) {
  const char *text = getenv("BENCH_ROUNDS");
  int rounds = text != NULL ? atoi(text) : 7;
  if (rounds < 1 || rounds > 1000) {
    fprintf(stderr, "bench: BENCH_ROUNDS must be from 1 to 1000\n");
    exit(2);
  }
  return rounds;
}

/* Times `count` calls alternately, so that the machine's drift over
 * minutes (20-50 % on the development machines) falls on all of them
 * alike: `rounds` rounds, in each every call repeated for at least 20 ms;
 * seconds[k * rounds + r] is call k's time per call in round r. */
static inline void interleaved_seconds(int count, const struct bench_call *calls,
                                int rounds, double *seconds) {
  for (int r = 0; r < rounds; r++) {
    for (int k = 0; k < count; k++) {
      int repeats = 0;
      double start = now(), elapsed;
      do {
        calls[k].kernel(calls[k].a, calls[k].b, calls[k].c);
        repeats++;
        elapsed = now() - start;
      } while (elapsed < 0.02);
      seconds[k * rounds + r] = elapsed / repeats;
    }
  }
}

static inline int compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

/* Room for `n` doubles. */
static inline double *bench_doubles(int n) {
  double *values = malloc(sizeof(double) * (size_t)n);
  if (values == NULL) {
    fprintf(stderr, "bench: out of memory\n");
    exit(1);
  }
  return values;
}

/* The median of `n` values (sorted in place). */
static inline double median_of(double *values, int n) {
  qsort(values, (size_t)n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

/* Call `k`'s median time per call over the rounds of
 * interleaved_seconds' `seconds`. */
static inline double median_seconds(const double *seconds, int rounds, int k) {
  double *copy = bench_doubles(rounds);
  for (int r = 0; r < rounds; r++) copy[r] = seconds[k * rounds + r];
  double median = median_of(copy, rounds);
  free(copy);
  return median;
}

/* The speed of call `k` over call `base` (base's time over k's) in each
 * round of interleaved_seconds' `seconds`: its median, lowest and highest
 * round. */
struct bench_ratio {
  double median, low, high;
};
static inline struct bench_ratio speed_ratio(const double *seconds, int rounds,
                                      int k, int base) {
  double *ratios = bench_doubles(rounds);
  for (int r = 0; r < rounds; r++) {
    ratios[r] = seconds[base * rounds + r] / seconds[k * rounds + r];
  }
  struct bench_ratio ratio = {median_of(ratios, rounds), ratios[0],
                              ratios[rounds - 1]};
  free(ratios);
  return ratio;
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
