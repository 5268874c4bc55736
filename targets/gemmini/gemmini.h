/* A software model of Gemmini's C API (gemmini.h of the Gemmini project),
 * enough of it for the C that emit-c writes from targets/gemmini/gemmini.tir
 * to compile and run on the host, so that it can be checked against
 * run-sim. It models a 16x16 weight-stationary array with a 256 KiB
 * scratchpad of int8 rows and a 64 KiB accumulator of int32 rows; the
 * functions have Gemmini's names and arguments (addresses are row numbers,
 * accumulator addresses have bit 31 set, bit 30 to accumulate, bit 29 to
 * move out at full width). What the model does not implement (scaling,
 * activations, transposes, the output-stationary dataflow, moves of more
 * than 16 columns) stops the program with a message rather than compute
 * something else. The model's state is per translation unit. */
#ifndef TESSEL_TARGETS_GEMMINI_GEMMINI_H_
#define TESSEL_TARGETS_GEMMINI_GEMMINI_H_

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DIM 16
#define GEMMINI_SPAD_ROWS (256 * 1024 / DIM)
#define GEMMINI_ACC_ROWS (64 * 1024 / (DIM * 4))
#define OS 0
#define WS 1
#define GEMMINI_ACC_ADDR 0x80000000u
#define GEMMINI_ACC_ACCUMULATE 0x40000000u
#define GEMMINI_ACC_FULL_WIDTH 0x20000000u
#define GEMMINI_ROW_MASK 0x1fffffffu
#define GEMMINI_GARBAGE_ADDR 0xffffffffu

static struct {
  int8_t spad[GEMMINI_SPAD_ROWS][DIM];
  int32_t acc[GEMMINI_ACC_ROWS][DIM];
  uint32_t spad_top, acc_top; /* rows allocated */
  uint64_t load_stride[3];    /* bytes, per load unit */
  uint64_t store_stride;      /* bytes */
  int dataflow;
  uint32_t preload_b, preload_c, b_cols, b_rows, c_cols, c_rows;
} gemmini_model;

static inline void gemmini_fail(const char *what) {
  fprintf(stderr, "gemmini model: %s\n", what);
  exit(1);
}

/* Memory: allocations of whole rows, freed last allocated first. The first
 * row of `size` elements more of the `limit` rows of which `*top` are
 * taken. */
static inline uint32_t gemmini_take_rows(uint32_t *top, uint32_t limit,
                                         long size, const char *full) {
  uint32_t rows = (uint32_t)((size + DIM - 1) / DIM);
  if (rows > limit - *top) gemmini_fail(full);
  *top += rows;
  return *top - rows;
}

static inline int8_t *gemmini_malloc_spad(long size) {
  return gemmini_model.spad[gemmini_take_rows(
      &gemmini_model.spad_top, GEMMINI_SPAD_ROWS, size, "out of scratchpad")];
}

static inline int32_t *gemmini_malloc_acc(long size) {
  return gemmini_model.acc[gemmini_take_rows(
      &gemmini_model.acc_top, GEMMINI_ACC_ROWS, size, "out of accumulator")];
}

static inline void gemmini_free_spad(int8_t *p) {
  gemmini_model.spad_top = (uint32_t)((p - gemmini_model.spad[0]) / DIM);
}

static inline void gemmini_free_acc(int32_t *p) {
  gemmini_model.acc_top = (uint32_t)((p - gemmini_model.acc[0]) / DIM);
}

/* The address of the row an element of the scratchpad or accumulator
 * starts: what Exo's templates take as `(uint32_t) &{X_data}`. */
static inline uint32_t gemmini_spad_addr(const int8_t *p) {
  long offset = (long)(p - gemmini_model.spad[0]);
  if (offset % DIM != 0) gemmini_fail("a scratchpad address inside a row");
  return (uint32_t)(offset / DIM);
}

static inline uint32_t gemmini_acc_addr(const int32_t *p) {
  long offset = (long)(p - gemmini_model.acc[0]);
  if (offset % DIM != 0) gemmini_fail("an accumulator address inside a row");
  return GEMMINI_ACC_ADDR | (uint32_t)(offset / DIM);
}

/* Configuration. */
static inline void gemmini_config_ld_model(uint64_t stride, float scale,
                                           int shrunk, int id) {
  if (scale != 1.0f || shrunk != 0 || id < 0 || id > 2) {
    gemmini_fail("config_ld: only unscaled, unshrunk loads are modelled");
  }
  gemmini_model.load_stride[id] = stride;
}
#define gemmini_extended3_config_ld(stride, scale, shrunk, id) \
  gemmini_config_ld_model((uint64_t)(stride), (scale), (shrunk), (id))

static inline void gemmini_config_st_model(uint64_t stride, int act,
                                           float scale) {
  if (act != 0 || scale != 1.0f) {
    gemmini_fail("config_st: activations and scaling are not modelled");
  }
  gemmini_model.store_stride = stride;
}
#define gemmini_extended_config_st(stride, act, scale) \
  gemmini_config_st_model((uint64_t)(stride), (act), (scale))

static inline void gemmini_config_ex_model(int dataflow, int act, int sys_shift,
                                           int relu6_shift, int a_stride,
                                           int a_transpose, int b_transpose) {
  if (dataflow != WS || act != 0 || sys_shift != 0 || relu6_shift != 0 ||
      a_stride != 1 || a_transpose != 0 || b_transpose != 0) {
    gemmini_fail("config_ex: only the plain weight-stationary dataflow is "
                 "modelled");
  }
  gemmini_model.dataflow = dataflow;
}
#define gemmini_extended_config_ex(dataflow, act, sys_shift, relu6_shift, \
                                   a_stride, a_transpose, b_transpose)    \
  gemmini_config_ex_model((dataflow), (act), (sys_shift), (relu6_shift),  \
                          (a_stride), (a_transpose), (b_transpose))

/* Moves: `rows` rows of `cols` elements between main memory (rows
 * `stride` bytes apart) and the scratchpad (int8) or the accumulator
 * (int32). A load from address 0 writes zeros. */
static inline void gemmini_check_move(uint32_t addr, uint64_t cols,
                                      uint64_t rows) {
  uint32_t limit = addr & GEMMINI_ACC_ADDR ? GEMMINI_ACC_ROWS
                                           : GEMMINI_SPAD_ROWS;
  if (cols > DIM || rows > DIM || (addr & GEMMINI_ROW_MASK) + rows > limit) {
    gemmini_fail("a move of more than 16x16 elements or out of bounds");
  }
}

static inline void gemmini_mvin_model(uint64_t dram, uint32_t addr,
                                      uint64_t cols, uint64_t rows, int id) {
  gemmini_check_move(addr, cols, rows);
  const char *src = (const char *)(uintptr_t)dram;
  uint32_t row = addr & GEMMINI_ROW_MASK;
  for (uint64_t r = 0; r < rows; r++) {
    for (uint64_t c = 0; c < cols; c++) {
      if (addr & GEMMINI_ACC_ADDR) {
        int32_t value = 0;
        if (src) {
          memcpy(&value, src + r * gemmini_model.load_stride[id] + c * 4, 4);
        }
        int32_t *dst = &gemmini_model.acc[row + r][c];
        *dst = addr & GEMMINI_ACC_ACCUMULATE
                   ? (int32_t)((uint32_t)*dst + (uint32_t)value)
                   : value;
      } else {
        int8_t value = 0;
        if (src) value = (int8_t)src[r * gemmini_model.load_stride[id] + c];
        gemmini_model.spad[row + r][c] = value;
      }
    }
  }
}
#define gemmini_extended_mvin(dram_addr, spad_addr, cols, rows)            \
  gemmini_mvin_model((uint64_t)(uintptr_t)(dram_addr), (spad_addr), (cols), \
                     (rows), 0)
#define gemmini_extended_mvin2(dram_addr, spad_addr, cols, rows)           \
  gemmini_mvin_model((uint64_t)(uintptr_t)(dram_addr), (spad_addr), (cols), \
                     (rows), 1)
#define gemmini_extended_mvin3(dram_addr, spad_addr, cols, rows)           \
  gemmini_mvin_model((uint64_t)(uintptr_t)(dram_addr), (spad_addr), (cols), \
                     (rows), 2)

static inline void gemmini_mvout_model(uint64_t dram, uint32_t addr,
                                       uint64_t cols, uint64_t rows) {
  gemmini_check_move(addr, cols, rows);
  char *dst = (char *)(uintptr_t)dram;
  uint32_t row = addr & GEMMINI_ROW_MASK;
  if ((addr & GEMMINI_ACC_ADDR) && !(addr & GEMMINI_ACC_FULL_WIDTH)) {
    gemmini_fail("mvout: scaled int8 moves out of the accumulator are not "
                 "modelled");
  }
  for (uint64_t r = 0; r < rows; r++) {
    for (uint64_t c = 0; c < cols; c++) {
      if (addr & GEMMINI_ACC_ADDR) {
        memcpy(dst + r * gemmini_model.store_stride + c * 4,
               &gemmini_model.acc[row + r][c], 4);
      } else {
        dst[r * gemmini_model.store_stride + c] =
            (char)gemmini_model.spad[row + r][c];
      }
    }
  }
}
#define gemmini_extended_mvout(dram_addr, spad_addr, cols, rows) \
  gemmini_mvout_model((uint64_t)(uintptr_t)(dram_addr), (spad_addr), (cols), (rows))

/* The weight-stationary matmul: preload B (bd_rows x bd_cols) into the
 * array and name where its results go (c_rows x c_cols, accumulated when
 * the address says so); then stream A (a_rows x a_cols) through it. */
static inline void gemmini_extended_preload(uint32_t bd_addr, uint32_t c_addr,
                                            uint32_t bd_cols, uint32_t bd_rows,
                                            uint32_t c_cols, uint32_t c_rows) {
  gemmini_check_move(bd_addr, bd_cols, bd_rows);
  gemmini_check_move(c_addr, c_cols, c_rows);
  if (!(c_addr & GEMMINI_ACC_ADDR) || (bd_addr & GEMMINI_ACC_ADDR)) {
    gemmini_fail("preload: B is in the scratchpad, C in the accumulator");
  }
  gemmini_model.preload_b = bd_addr;
  gemmini_model.preload_c = c_addr;
  gemmini_model.b_cols = bd_cols;
  gemmini_model.b_rows = bd_rows;
  gemmini_model.c_cols = c_cols;
  gemmini_model.c_rows = c_rows;
}

static inline void gemmini_extended_compute_preloaded(
    uint32_t a_addr, uint32_t bd_addr, uint32_t a_cols, uint32_t a_rows,
    uint32_t bd_cols, uint32_t bd_rows) {
  (void)bd_addr;
  (void)bd_cols;
  (void)bd_rows;
  gemmini_check_move(a_addr, a_cols, a_rows);
  if (gemmini_model.dataflow != WS || (a_addr & GEMMINI_ACC_ADDR) ||
      a_cols > gemmini_model.b_rows || gemmini_model.c_rows > a_rows ||
      gemmini_model.c_cols > gemmini_model.b_cols) {
    gemmini_fail("compute: operands that do not fit the preloaded matmul");
  }
  uint32_t a = a_addr & GEMMINI_ROW_MASK;
  uint32_t b = gemmini_model.preload_b & GEMMINI_ROW_MASK;
  uint32_t c = gemmini_model.preload_c & GEMMINI_ROW_MASK;
  int accumulate = (gemmini_model.preload_c & GEMMINI_ACC_ACCUMULATE) != 0;
  for (uint32_t i = 0; i < gemmini_model.c_rows; i++) {
    for (uint32_t j = 0; j < gemmini_model.c_cols; j++) {
      /* int32 arithmetic wraps, as TIR's does. */
      uint32_t sum = accumulate ? (uint32_t)gemmini_model.acc[c + i][j] : 0;
      for (uint32_t k = 0; k < a_cols; k++) {
        sum += (uint32_t)((int32_t)gemmini_model.spad[a + i][k] *
                          (int32_t)gemmini_model.spad[b + k][j]);
      }
      gemmini_model.acc[c + i][j] = (int32_t)sum;
    }
  }
}

#endif /* TESSEL_TARGETS_GEMMINI_GEMMINI_H_ */
