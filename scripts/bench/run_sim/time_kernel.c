/* Times a kernel that emit-c wrote, in process, and prints its seconds of
 * processor time per call: the best of 5 runs of at least 50 ms each.
 * Built by
 * scripts/bench/run_sim_throughput.sh with
 *   -DKERNEL_C='"kernel.c"'  the output of emit-c;
 *   -DBUFFERS='X(A, float, 65536) X(B, float, 65536) ...'  its data
 *       parameters with their element types and element counts;
 *   -DCALL='matmul(A, B, C)'  the call. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include KERNEL_C

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
  unsigned state = 12345u;
#define X(name, type, count)                                  \
  type *name = malloc(sizeof(type) * (count));                \
  for (long i = 0; i < (count); i++) {                        \
    state = state * 1103515245u + 12345u;                     \
    name[i] = (type)((float)(state >> 8) / 16777216.0f - 0.5f); \
  }
  BUFFERS
#undef X
  double best = INFINITY;
  for (int trial = 0; trial < 5; trial++) {
    int calls = 0;
    double start = now(), elapsed;
    do {
      CALL;
      calls++;
      elapsed = now() - start;
    } while (elapsed < 0.05);
    if (elapsed / calls < best) best = elapsed / calls;
  }
  printf("%.9f\n", best);
  return 0;
}
