/* The CS-1-style API that emit-cs1's per-PE C is written against
 * (docs/emit-cs1.md): what a PE's program asks of its processing element.
 * Every PE of a class runs the same program, parameterised by its
 * coordinates. Its setup (one of cs1_program.setups) configures the SIMD
 * engine once per descriptor shape, says which part of the parameters
 * its local arrays hold, and registers its tasks; the tasks then run, a
 * start task once, a recv task once per element of a parameter that
 * arrives, and issue SIMD instructions on descriptors.
 *
 * cs1_host.c implements it on a host, running the PEs one after another
 * (formats/tir/README.md, "CS-1 level", Meaning). Plain C99, plus
 * _Float16 (GCC, Clang) for f16 operands, as emit-c's C. Everything is
 * named cs1_*. */
#ifndef TESSEL_TARGETS_CS1_CS1_API_H_
#define TESSEL_TARGETS_CS1_CS1_API_H_

#include <stdbool.h>
#include <stdint.h>

/* The program: its parameters (data outside the grid, of literal shapes)
   and grid, and the setup every PE runs first. */
enum cs1_param_kind { CS1_IN, CS1_OUT, CS1_INOUT };
enum cs1_elem_type { CS1_F32, CS1_F16 };
/* How an input arrives: every element, or (CS1_SPARSE) as value-index
   pairs whose zeros are not sent, so that no recv task runs for them. */
enum cs1_arrival { CS1_DENSE, CS1_SPARSE };
struct cs1_param {
  const char *name;
  enum cs1_param_kind kind;
  enum cs1_elem_type elem;
  int rank;
  const int64_t *shape;
  enum cs1_arrival arrival;
};
typedef void (*cs1_task)(void);
struct cs1_program {
  const char *name;
  int64_t grid_x, grid_y; /* PE (x, y), 0 <= x < grid_x, 0 <= y < grid_y */
  int num_params;
  const struct cs1_param *params;
  /* PE classes: the PEs whose programs are the same once specialised to
     the PE (the same tasks run on them) share one setup, their `main`.
     class_of gives each PE's class, row by row (y, then x): PE (x, y)
     runs setups[class_of[y * grid_x + x]]; NULL for one class. */
  int num_classes;
  const cs1_task *setups;
  const int *class_of;
};

/* What emit-cs1 writes: the program every PE runs. */
extern const struct cs1_program cs1_program;

/* The coordinates of the PE the program runs on. */
int64_t cs1_pe_x(void);
int64_t cs1_pe_y(void);

/* SIMD engine configuration `config` (0 <= config < CS1_MAX_CONFIGS): a
   loop nest of `rank` (1 to 4) dimensions of the given extents, whose
   operand element (i0, ..., i3) is base + i0 * strides[0] + ... Configured
   once, in setup, before any instruction uses it. */
#define CS1_MAX_CONFIGS 64
void cs1_configure(int config, int rank, const int64_t *extents,
                   const int64_t *strides);

/* Data structure descriptors: PE memory seen through a configuration,
   from element `base` of `memory`. A task passes a local array it only
   reads as const (a proc's `in` parameter): instructions write only their
   destination operand, and PE memory is never a const object. */
typedef struct {
  float *memory;
  int config;
  int64_t base;
} cs1_dsd_f32;
typedef struct {
  _Float16 *memory;
  int config;
  int64_t base;
} cs1_dsd_f16;
static inline cs1_dsd_f32 cs1_dsd32(int config, const float *memory,
                                    int64_t base) {
  cs1_dsd_f32 dsd = {(float *)memory, config, base};
  return dsd;
}
static inline cs1_dsd_f16 cs1_dsd16(int config, const _Float16 *memory,
                                    int64_t base) {
  cs1_dsd_f16 dsd = {(_Float16 *)memory, config, base};
  return dsd;
}

/* SIMD instructions, element by element over the destination's loop nest
   (every operand's configuration has its extents): */
void cs1_fmovs(cs1_dsd_f32 dst, cs1_dsd_f32 src);        /* dst = src */
void cs1_fmovs_scalar(cs1_dsd_f32 dst, float s);         /* dst = s */
void cs1_fadds(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b); /* a + b */
void cs1_fmuls(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b); /* a * b */
void cs1_fmuls_scalar(cs1_dsd_f32 dst, cs1_dsd_f32 a, float s); /* a * s */
void cs1_fmacs(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b,
               float s);                                 /* a + b * s */
void cs1_fmovh(cs1_dsd_f16 dst, cs1_dsd_f16 src);
void cs1_fmovh_scalar(cs1_dsd_f16 dst, _Float16 s);
void cs1_fmach(cs1_dsd_f16 dst, cs1_dsd_f16 a, cs1_dsd_f16 b, _Float16 s);

/* A local array of `size` elements of type `elem` in PE memory
   (registered in setup).
   With `param` >= 0 it holds part of that parameter: its element J, of
   the parameter's rank, with dimensions `dims`, is element J + offsets of
   the parameter, loaded before the tasks run when the parameter is read
   and given back after them when it is written. */
void cs1_local(void *memory, enum cs1_elem_type elem, int64_t size,
               int param, const int64_t *dims, const int64_t *offsets);
/* The local array `memory`, registered, holds partial results of its
   output ((partial add)). The PEs that hold partial sums of one element
   of an output form a chain, in the order the PEs run (y, then x), along
   which the fabric routes the sum (its routes configured before the
   program runs, as the CS-1's are): each PE receives the sum so far from
   the PE before it, adds its own and sends it on; the last keeps it, and
   gives it back. */
void cs1_partial(void *memory);
/* `*sum` = the partial sum of element `element` (row-major) of output
   `param` that arrived from the PE before this one in its chain + `*sum`,
   in the element type's arithmetic; unchanged on the first PE. */
void cs1_recv_partial_f32(int param, int64_t element, float *sum);
void cs1_recv_partial_f16(int param, int64_t element, _Float16 *sum);
/* Sends `sum` on to the next PE of the element's chain: true; false on
   the last PE, which keeps it (and gives it back). */
bool cs1_send_partial_f32(int param, int64_t element, float sum);
bool cs1_send_partial_f16(int param, int64_t element, _Float16 sum);

/* Tasks, registered in setup, run in the order registered: a start task
   once, a recv task once for each element of parameter `param` that
   arrives (in row-major order; of a CS1_SPARSE parameter, those not zero), which it reads with cs1_recv_index and
   cs1_recv_f32 or cs1_recv_f16. */
void cs1_start_task(cs1_task task);
void cs1_recv_task(int param, cs1_task task);
int64_t cs1_recv_index(int dim);
float cs1_recv_f32(void);
_Float16 cs1_recv_f16(void);

#endif /* TESSEL_TARGETS_CS1_CS1_API_H_ */
