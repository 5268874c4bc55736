/* Times Tessel's convolution (parse, vectorize, emit-c: the kernel
 * `KERNEL(const float *x, const float *w, float *y)` of
 * scripts/bench/conv/conv2d_nhwc.tk or depthwise_nhwc.tk) against oneDNN's
 * forward convolution on the same inputs, in one run, timed alternately
 * ($BENCH_ROUNDS rounds, bench_common.h), and prints median GFLOP/s, each
 * as a share of the core's FMA peak (-DPEAK), and the speed ratio's
 * median and range over the rounds.
 *
 * oneDNN runs at its best: it chooses the layouts of the activations and
 * the weights (format `any`), and the reorders into them are done once,
 * outside the timing, as a framework would for weights. Its result is
 * reordered back to NHWC and compared with Tessel's. oneDNN allocates its
 * memories itself, aligned to 64 bytes; Tessel's kernel gets buffers
 * aligned alike (malloc's large blocks start 16 bytes past a page, which
 * splits every 64-byte vector of an NHWC tensor across two cache lines).
 *
 * Built by scripts/bench/conv.sh with -DTESSEL_KERNEL="kernel.c",
 * -DKERNEL=name, the sizes -DSIZE_N, SIZE_H, SIZE_W, SIZE_C, SIZE_F, SIZE_KH,
 * SIZE_KW, SIZE_S (stride), SIZE_D (dilation), -DDEPTHWISE=0|1, -DPEAK=. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <math.h>
#include <oneapi/dnnl/dnnl.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench_common.h"
#include TESSEL_KERNEL

enum {
  N = SIZE_N, H = SIZE_H, W = SIZE_W, C = SIZE_C, KH = SIZE_KH, KW = SIZE_KW,
  S = SIZE_S, D = SIZE_D,
  F = DEPTHWISE ? SIZE_C : SIZE_F,
  OH = (H - D * (KH - 1) - 1) / S + 1,
  OW = (W - D * (KW - 1) - 1) / S + 1,
};

#define CHECK(call)                                                  \
  do {                                                               \
    dnnl_status_t status = (call);                                   \
    if (status != dnnl_success) {                                    \
      fprintf(stderr, "conv_bench: %s failed (%d)\n", #call, status); \
      exit(1);                                                       \
    }                                                                \
  } while (0)

static dnnl_engine_t engine;
static dnnl_stream_t stream;
static dnnl_primitive_t conv;
static dnnl_memory_t conv_src, conv_weights, conv_dst;

/* A memory of `md` over `data`, or over a fresh buffer when data is NULL. */
static dnnl_memory_t memory(const dnnl_memory_desc_t *md, void *data) {
  dnnl_memory_t m;
  CHECK(dnnl_memory_create(&m, md, engine, data ? data : DNNL_MEMORY_ALLOCATE));
  return m;
}

static void reorder(dnnl_memory_t from, dnnl_memory_t to) {
  const dnnl_memory_desc_t *from_md, *to_md;
  CHECK(dnnl_memory_get_memory_desc(from, &from_md));
  CHECK(dnnl_memory_get_memory_desc(to, &to_md));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_reorder_primitive_desc_create(&pd, from_md, engine, to_md, engine,
                                           NULL));
  dnnl_primitive_t r;
  CHECK(dnnl_primitive_create(&r, pd));
  dnnl_exec_arg_t args[] = {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}};
  CHECK(dnnl_primitive_execute(r, stream, 2, args));
  CHECK(dnnl_stream_wait(stream));
  dnnl_primitive_destroy(r);
  dnnl_primitive_desc_destroy(pd);
}

/* The convolution, its weights reordered once; `y` gets its result in
 * NHWC. Returns the layouts oneDNN chose, for the report. */
static void onednn_setup(const float *x, const float *w, const char **impl) {
  CHECK(dnnl_engine_create(&engine, dnnl_cpu, 0));
  CHECK(dnnl_stream_create(&stream, engine, dnnl_stream_default_flags));
  dnnl_memory_desc_t src_user, wei_user, src_any, wei_any, dst_any;
  dnnl_dims_t src_dims = {N, C, H, W}, dst_dims = {N, F, OH, OW};
  CHECK(dnnl_memory_desc_init_by_tag(&src_user, 4, src_dims, dnnl_f32,
                                     dnnl_nhwc));
  CHECK(dnnl_memory_desc_init_by_tag(&src_any, 4, src_dims, dnnl_f32,
                                     dnnl_format_tag_any));
  CHECK(dnnl_memory_desc_init_by_tag(&dst_any, 4, dst_dims, dnnl_f32,
                                     dnnl_format_tag_any));
  if (DEPTHWISE) {
    dnnl_dims_t wei_dims = {C, 1, 1, KH, KW};
    CHECK(dnnl_memory_desc_init_by_tag(&wei_user, 5, wei_dims, dnnl_f32,
                                       dnnl_hwigo));
    CHECK(dnnl_memory_desc_init_by_tag(&wei_any, 5, wei_dims, dnnl_f32,
                                       dnnl_format_tag_any));
  } else {
    dnnl_dims_t wei_dims = {F, C, KH, KW};
    CHECK(dnnl_memory_desc_init_by_tag(&wei_user, 4, wei_dims, dnnl_f32,
                                       dnnl_hwio));
    CHECK(dnnl_memory_desc_init_by_tag(&wei_any, 4, wei_dims, dnnl_f32,
                                       dnnl_format_tag_any));
  }
  dnnl_dims_t strides = {S, S}, dilates = {D - 1, D - 1}, padding = {0, 0};
  dnnl_convolution_desc_t desc;
  CHECK(dnnl_dilated_convolution_forward_desc_init(
      &desc, dnnl_forward_inference, dnnl_convolution_direct, &src_any,
      &wei_any, NULL, &dst_any, strides, dilates, padding, padding));
  dnnl_primitive_desc_t pd;
  CHECK(dnnl_primitive_desc_create(&pd, &desc, NULL, engine, NULL));
  CHECK(dnnl_primitive_desc_query(pd, dnnl_query_impl_info_str, 0, impl));
  CHECK(dnnl_primitive_create(&conv, pd));
  conv_src = memory(dnnl_primitive_desc_query_md(pd, dnnl_query_src_md, 0),
                    NULL);
  conv_weights = memory(
      dnnl_primitive_desc_query_md(pd, dnnl_query_weights_md, 0), NULL);
  conv_dst = memory(dnnl_primitive_desc_query_md(pd, dnnl_query_dst_md, 0),
                    NULL);
  dnnl_memory_t x_user = memory(&src_user, (void *)x);
  dnnl_memory_t w_user = memory(&wei_user, (void *)w);
  reorder(x_user, conv_src);
  reorder(w_user, conv_weights);
  dnnl_memory_destroy(x_user);
  dnnl_memory_destroy(w_user);
}

static void onednn_conv(const float *x, const float *w, float *y) {
  (void)x, (void)w, (void)y; /* bound to the primitive's memories */
  dnnl_exec_arg_t args[] = {{DNNL_ARG_SRC, conv_src},
                            {DNNL_ARG_WEIGHTS, conv_weights},
                            {DNNL_ARG_DST, conv_dst}};
  CHECK(dnnl_primitive_execute(conv, stream, 3, args));
  CHECK(dnnl_stream_wait(stream));
}

int main(void) {
  const long x_size = (long)N * H * W * C, y_size = (long)N * OH * OW * F;
  const long w_size = DEPTHWISE ? (long)KH * KW * C : (long)KH * KW * C * F;
  const long larger = x_size > w_size ? x_size : w_size;
  float *x = aligned_floats(larger);
  float *w = aligned_floats(larger);
  float *y = aligned_floats(y_size);
  float *o = aligned_floats(y_size);
  fill_inputs(x, w, (int)larger);
  const char *impl = "";
  onednn_setup(x, w, &impl);
  const struct bench_call calls[] = {{KERNEL, x, w, y}, {onednn_conv, x, w, o}};
  const int rounds = bench_rounds();
  double *seconds = bench_doubles(2 * rounds);
  interleaved_seconds(2, calls, rounds, seconds);
  double tessel = median_seconds(seconds, rounds, 0);
  double onednn = median_seconds(seconds, rounds, 1);
  struct bench_ratio speed = speed_ratio(seconds, rounds, 0, 1);
  free(seconds);
  dnnl_dims_t dst_dims = {N, F, OH, OW};
  dnnl_memory_desc_t dst_user;
  CHECK(dnnl_memory_desc_init_by_tag(&dst_user, 4, dst_dims, dnnl_f32,
                                     dnnl_nhwc));
  dnnl_memory_t o_user = memory(&dst_user, o);
  reorder(conv_dst, o_user);
  double worst = 0.0, largest = 0.0;
  for (long i = 0; i < y_size; i++) {
    double d = fabs((double)y[i] - (double)o[i]);
    if (d > worst) worst = d;
    if (fabs((double)o[i]) > largest) largest = fabs((double)o[i]);
  }
  double gflops = 2.0 * N * OH * OW * F * KH * KW *
                  (DEPTHWISE ? 1 : C) * 1e-9;
  printf("%s %dx%dx%dx%d -> %d, %dx%d, stride %d, dilation %d: tessel %6.1f "
         "GFLOP/s (%3.0f%% of peak), oneDNN %6.1f (%3.0f%%, %s); "
         "tessel/oneDNN speed %.2fx (rounds %.2f-%.2f; relative diff "
         "%.1e)\n",
         DEPTHWISE ? "depthwise" : "conv2d", N, H, W, C, F, KH, KW, S, D,
         gflops / tessel, 100.0 * gflops / tessel / PEAK, gflops / onednn,
         100.0 * gflops / onednn / PEAK, impl, speed.median, speed.low,
         speed.high, largest > 0.0 ? worst / largest : worst);
  free(x);
  free(w);
  free(y);
  free(o);
  return 0;
}
