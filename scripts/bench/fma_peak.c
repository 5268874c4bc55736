/* Measures one core's peak f32 fused multiply-add throughput, the roof
 * every benchmark prints its figures beside (machines change between
 * runs). Independent chains of vector FMAs on the widest vectors the
 * compiler targets (build with -O2 -march=native): enough chains to cover
 * the FMA latency on every port. Prints GFLOP/s, the best of 5 runs of
 * about 0.1 s of the thread's processor time (not the wall clock, which
 * other work on a busy machine stretches), and the vector width.
 *   cc -std=gnu11 -O2 -march=native fma_peak.c -o fma_peak */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX__)
#define LANES 8
#else
#define LANES 4
#endif
/* As many chains as the registers hold beside a and b: AVX-512 has 32,
 * AVX2 and SSE 16, where 16 chains spilled to the stack and ran through
 * its store forwarding (31 GFLOP/s on an AMD Zen 3 core whose matmul
 * kernels run at 76-96). 12 still cover the FMA latency of 4-5 cycles on
 * two units. */
#if LANES == 16
#define CHAINS 16
#else
#define CHAINS 12
#endif

typedef float vec __attribute__((vector_size(LANES * sizeof(float))));

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

#define STEP(v) v = v * a + b
#define ALL12(op) \
  op(v0); op(v1); op(v2); op(v3); op(v4); op(v5); op(v6); op(v7); \
  op(v8); op(v9); op(v10); op(v11)
#if CHAINS == 16
#define ALL(op) ALL12(op); op(v12); op(v13); op(v14); op(v15)
#else
#define ALL(op) ALL12(op)
#endif
#define KEEP(v) __asm__ volatile("" : "+x"(v))

int main(void) {
  vec a, b;
  for (int k = 0; k < LANES; ++k) {
    a[k] = 0.999999f;
    b[k] = 1e-7f;
  }
  vec v0 = b, v1 = b, v2 = b, v3 = b, v4 = b, v5 = b, v6 = b, v7 = b;
  vec v8 = b, v9 = b, v10 = b, v11 = b;
#if CHAINS == 16
  vec v12 = b, v13 = b, v14 = b, v15 = b;
#endif
  const long iterations = 10000000;
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    double start = now();
    for (long i = 0; i < iterations; ++i) {
      ALL(STEP);
      /* Keeps the chains in registers and the loop from being folded. */
      ALL(KEEP);
    }
    double seconds = now() - start;
    double gflops = 2.0 * LANES * CHAINS * iterations / seconds / 1e9;
    if (gflops > best) best = gflops;
  }
  vec sum = v0 + v1 + v2 + v3 + v4 + v5 + v6 + v7 + v8 + v9 + v10 + v11;
#if CHAINS == 16
  sum += v12 + v13 + v14 + v15;
#endif
  printf("%.1f GFLOP/s f32 FMA peak, one core (%d-lane vectors; checksum %g)\n",
         best, LANES, (double)sum[0]);
  return 0;
}
