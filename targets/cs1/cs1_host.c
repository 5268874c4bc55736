/* A host implementation of cs1_api.h (docs/emit-cs1.md): runs the PEs of
 * a program emitted by emit-cs1 one after another, row by row (y outer,
 * x inner), each as formats/tir/README.md ("CS-1 level", Meaning) says:
 * its local arrays loaded from the parameters they hold, its tasks in the
 * order registered (a recv task once per element of its parameter, in
 * row-major order), the parameters written gathered back. PEs share
 * nothing at that level, so one set of local arrays serves every PE in
 * turn. A local array starts as NaN on every PE, so that an element no
 * task writes shows. Its main reads the inputs from DIR/NAME.npy and
 * writes the outputs there, as emit-c's harness does:
 *
 *   ./k --inputs DIR --outputs DIR
 *
 * It uses emit-c's C runtime (libs/emitc/runtime/tessel_npy.c): emit-cs1
 * --harness writes the runtime's parts, cs1_api.h and the text after the
 * `cs1:host` marker into one file. Compiled on its own, with a program
 * from emit-cs1 without --harness, it includes them itself. */
#ifndef CS1_HOST_EMBEDDED
#pragma GCC diagnostic ignored "-Wunused-function"
#include "libs/emitc/runtime/tessel_npy.c"
#include "targets/cs1/cs1_api.h"
#endif
/* cs1:host */

/* The program emit-cs1 wrote. */
extern const struct cs1_program cs1_program;

#define CS1_MAX_LOCALS 64
#define CS1_MAX_TASKS 64
#define CS1_MAX_RANK 8

struct cs1_config_state {
  int rank; /* 0: not configured */
  int64_t extents[4];
  int64_t strides[4];
};
struct cs1_local_state {
  void *memory;
  enum cs1_elem_type elem;
  int64_t size;
  int param; /* -1: holds nothing */
  bool partial;
  int64_t dims[CS1_MAX_RANK];
  int64_t offsets[CS1_MAX_RANK];
};
struct cs1_task_state {
  cs1_task task;
  int param; /* -1: a start task */
};

static struct {
  int64_t x, y;
  struct cs1_config_state configs[CS1_MAX_CONFIGS];
  struct cs1_local_state locals[CS1_MAX_LOCALS];
  int num_locals;
  struct cs1_task_state tasks[CS1_MAX_TASKS];
  int num_tasks;
  /* The element a recv task receives. */
  int64_t index[CS1_MAX_RANK];
  float value_f32;
  _Float16 value_f16;
  /* The parameters' data, by position, and for an output which of its
     elements a PE has given back. */
  void **data;
  unsigned char **given;
  /* The chains of partial sums, per output and element: how many of the
     PEs still to run hold one, the sum that travels along the chain (and
     whether one has arrived), and the ordinal of the PE that sent it on. */
  int64_t **holders;
  void **mailbox;
  unsigned char **arrived;
  int64_t **sent_by;
  int64_t ordinal; /* of the PE running, in the order PEs run */
} cs1_pe;

int64_t cs1_pe_x(void) { return cs1_pe.x; }
int64_t cs1_pe_y(void) { return cs1_pe.y; }

void cs1_configure(int config, int rank, const int64_t *extents,
                   const int64_t *strides) {
  if (config < 0 || config >= CS1_MAX_CONFIGS || rank < 1 || rank > 4) {
    tsl_error("configuration %d of rank %d: the SIMD engine has %d "
              "configurations of at most 4 dimensions",
              config, rank, CS1_MAX_CONFIGS);
  }
  struct cs1_config_state *state = &cs1_pe.configs[config];
  state->rank = rank;
  for (int d = 0; d < 4; d++) {
    state->extents[d] = d < rank ? extents[d] : 1;
    state->strides[d] = d < rank ? strides[d] : 0;
  }
}

static const struct cs1_config_state *cs1_config_of(int config) {
  if (config < 0 || config >= CS1_MAX_CONFIGS ||
      cs1_pe.configs[config].rank == 0) {
    tsl_error("PE (%lld, %lld) issues an instruction with configuration %d, "
              "which it has not configured",
              (long long)cs1_pe.x, (long long)cs1_pe.y, config);
  }
  return &cs1_pe.configs[config];
}

/* The loop nest of an instruction: the destination's configuration,
   whose extents every operand's configuration must have. */
struct cs1_nest {
  const struct cs1_config_state *dst;
  const struct cs1_config_state *src[3];
  int num_src;
};

static struct cs1_nest cs1_make_nest(int dst, const int *src, int num_src) {
  struct cs1_nest nest;
  nest.dst = cs1_config_of(dst);
  nest.num_src = num_src;
  for (int k = 0; k < num_src; k++) {
    nest.src[k] = cs1_config_of(src[k]);
    for (int d = 0; d < 4; d++) {
      if (nest.src[k]->extents[d] != nest.dst->extents[d]) {
        tsl_error("configurations %d and %d of one instruction have "
                  "different extents",
                  dst, src[k]);
      }
    }
  }
  return nest;
}

/* The position of element (i0, i1, i2, i3) of a descriptor. */
static int64_t cs1_position(const struct cs1_config_state *config,
                            int64_t base, const int64_t *i) {
  return base + i[0] * config->strides[0] + i[1] * config->strides[1] +
         i[2] * config->strides[2] + i[3] * config->strides[3];
}

enum cs1_op { CS1_MOV, CS1_MOV_SCALAR, CS1_ADD, CS1_MUL, CS1_MUL_SCALAR,
              CS1_MAC };

/* An instruction's operands, whatever their element type: memory, the
   configuration and the base of the destination (0) and sources (1..). */
struct cs1_operands {
  void *memory[3];
  int config[3];
  int64_t base[3];
  int num_src;
};

/* One element of an f32 instruction, rounded as TIR's body rounds it. */
static void cs1_element_f32(enum cs1_op op, float *d, const float *v,
                            float s) {
  switch (op) {
    case CS1_MOV: *d = v[0]; break;
    case CS1_MOV_SCALAR: *d = s; break;
    case CS1_ADD: *d = v[0] + v[1]; break;
    case CS1_MUL: *d = v[0] * v[1]; break;
    case CS1_MUL_SCALAR: *d = v[0] * s; break;
    case CS1_MAC: {
      float product = v[1] * s;
      *d = v[0] + product;
      break;
    }
  }
}

/* f16 arithmetic in float, rounded to f16 once per operation, as run-sim
   and emit-c (tsl_add_f16) compute it. */
static void cs1_element_f16(enum cs1_op op, _Float16 *d, const _Float16 *v,
                            _Float16 s) {
  switch (op) {
    case CS1_MOV: *d = v[0]; break;
    case CS1_MOV_SCALAR: *d = s; break;
    case CS1_ADD: *d = (_Float16)((float)v[0] + (float)v[1]); break;
    case CS1_MUL: *d = (_Float16)((float)v[0] * (float)v[1]); break;
    case CS1_MUL_SCALAR: *d = (_Float16)((float)v[0] * (float)s); break;
    case CS1_MAC: {
      _Float16 product = (_Float16)((float)v[1] * (float)s);
      *d = (_Float16)((float)v[0] + (float)product);
      break;
    }
  }
}

/* Runs an instruction over the destination's loop nest, element by
   element in its order. */
static void cs1_issue(enum cs1_op op, enum cs1_elem_type elem,
                      const struct cs1_operands *operands, float s32,
                      _Float16 s16) {
  struct cs1_nest nest = cs1_make_nest(operands->config[0],
                                       &operands->config[1],
                                       operands->num_src);
  int64_t i[4];
  for (i[0] = 0; i[0] < nest.dst->extents[0]; i[0]++)
    for (i[1] = 0; i[1] < nest.dst->extents[1]; i[1]++)
      for (i[2] = 0; i[2] < nest.dst->extents[2]; i[2]++)
        for (i[3] = 0; i[3] < nest.dst->extents[3]; i[3]++) {
          int64_t at = cs1_position(nest.dst, operands->base[0], i);
          float v32[2] = {0.0f, 0.0f};
          _Float16 v16[2] = {(_Float16)0.0f, (_Float16)0.0f};
          for (int k = 0; k < operands->num_src; k++) {
            int64_t from =
                cs1_position(nest.src[k], operands->base[k + 1], i);
            if (elem == CS1_F32) {
              v32[k] = ((const float *)operands->memory[k + 1])[from];
            } else {
              v16[k] = ((const _Float16 *)operands->memory[k + 1])[from];
            }
          }
          if (elem == CS1_F32) {
            cs1_element_f32(op, (float *)operands->memory[0] + at, v32, s32);
          } else {
            cs1_element_f16(op, (_Float16 *)operands->memory[0] + at, v16,
                            s16);
          }
        }
}

/* cs1_issue on descriptors of one element type (cs1_dsd_f32 or
   cs1_dsd_f16, whose fields are alike): the destination, then `num_src`
   sources. */
#define CS1_OPERANDS(dst, src, num_src)                                  \
  struct cs1_operands operands = {{dst.memory}, {dst.config}, {dst.base}, \
                                  num_src};                               \
  for (int k = 0; k < num_src; k++) {                                     \
    operands.memory[k + 1] = src[k].memory;                               \
    operands.config[k + 1] = src[k].config;                               \
    operands.base[k + 1] = src[k].base;                                   \
  }

static void cs1_issue_f32(enum cs1_op op, cs1_dsd_f32 dst,
                          const cs1_dsd_f32 *src, int num_src, float s) {
  CS1_OPERANDS(dst, src, num_src)
  cs1_issue(op, CS1_F32, &operands, s, (_Float16)0.0f);
}

static void cs1_issue_f16(enum cs1_op op, cs1_dsd_f16 dst,
                          const cs1_dsd_f16 *src, int num_src, _Float16 s) {
  CS1_OPERANDS(dst, src, num_src)
  cs1_issue(op, CS1_F16, &operands, 0.0f, s);
}

void cs1_fmovs(cs1_dsd_f32 dst, cs1_dsd_f32 src) {
  cs1_issue_f32(CS1_MOV, dst, &src, 1, 0.0f);
}
void cs1_fmovs_scalar(cs1_dsd_f32 dst, float s) {
  cs1_issue_f32(CS1_MOV_SCALAR, dst, NULL, 0, s);
}
void cs1_fadds(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b) {
  cs1_dsd_f32 src[2] = {a, b};
  cs1_issue_f32(CS1_ADD, dst, src, 2, 0.0f);
}
void cs1_fmuls(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b) {
  cs1_dsd_f32 src[2] = {a, b};
  cs1_issue_f32(CS1_MUL, dst, src, 2, 0.0f);
}
void cs1_fmuls_scalar(cs1_dsd_f32 dst, cs1_dsd_f32 a, float s) {
  cs1_issue_f32(CS1_MUL_SCALAR, dst, &a, 1, s);
}
void cs1_fmacs(cs1_dsd_f32 dst, cs1_dsd_f32 a, cs1_dsd_f32 b, float s) {
  cs1_dsd_f32 src[2] = {a, b};
  cs1_issue_f32(CS1_MAC, dst, src, 2, s);
}
void cs1_fmovh(cs1_dsd_f16 dst, cs1_dsd_f16 src) {
  cs1_issue_f16(CS1_MOV, dst, &src, 1, (_Float16)0.0f);
}
void cs1_fmovh_scalar(cs1_dsd_f16 dst, _Float16 s) {
  cs1_issue_f16(CS1_MOV_SCALAR, dst, NULL, 0, s);
}
void cs1_fmach(cs1_dsd_f16 dst, cs1_dsd_f16 a, cs1_dsd_f16 b, _Float16 s) {
  cs1_dsd_f16 src[2] = {a, b};
  cs1_issue_f16(CS1_MAC, dst, src, 2, s);
}

void cs1_local(void *memory, enum cs1_elem_type elem, int64_t size,
               int param, const int64_t *dims, const int64_t *offsets) {
  if (cs1_pe.num_locals == CS1_MAX_LOCALS) {
    tsl_error("more than %d local arrays", CS1_MAX_LOCALS);
  }
  struct cs1_local_state *local = &cs1_pe.locals[cs1_pe.num_locals++];
  local->memory = memory;
  local->elem = elem;
  local->size = size;
  local->param = param;
  local->partial = false;
  if (param < 0) return;
  for (int d = 0; d < cs1_program.params[param].rank; d++) {
    local->dims[d] = dims[d];
    local->offsets[d] = offsets[d];
  }
}

void cs1_partial(void *memory) {
  for (int k = 0; k < cs1_pe.num_locals; k++) {
    if (cs1_pe.locals[k].memory == memory) cs1_pe.locals[k].partial = true;
  }
}

static void cs1_add_task(cs1_task task, int param) {
  if (cs1_pe.num_tasks == CS1_MAX_TASKS) {
    tsl_error("more than %d tasks", CS1_MAX_TASKS);
  }
  cs1_pe.tasks[cs1_pe.num_tasks].task = task;
  cs1_pe.tasks[cs1_pe.num_tasks].param = param;
  cs1_pe.num_tasks++;
}
void cs1_start_task(cs1_task task) { cs1_add_task(task, -1); }
void cs1_recv_task(int param, cs1_task task) { cs1_add_task(task, param); }
int64_t cs1_recv_index(int dim) { return cs1_pe.index[dim]; }
float cs1_recv_f32(void) { return cs1_pe.value_f32; }
_Float16 cs1_recv_f16(void) { return cs1_pe.value_f16; }

static size_t cs1_elem_size(enum cs1_elem_type elem) {
  return elem == CS1_F32 ? sizeof(float) : sizeof(_Float16);
}

static int64_t cs1_count(const struct cs1_param *param) {
  int64_t count = 1;
  for (int d = 0; d < param->rank; d++) count *= param->shape[d];
  return count;
}

/* Calls visit(local, flat, at) for each element `flat` of a local array
   whose J + offsets lies inside its parameter, at row-major position
   `at` there. */
static void cs1_for_each_held(const struct cs1_local_state *local,
                              void (*visit)(const struct cs1_local_state *,
                                            int64_t, int64_t)) {
  const struct cs1_param *param = &cs1_program.params[local->param];
  int64_t j[CS1_MAX_RANK] = {0};
  for (int64_t flat = 0; flat < local->size; flat++) {
    int64_t at = 0;
    bool inside = true;
    for (int d = 0; d < param->rank; d++) {
      int64_t p = j[d] + local->offsets[d];
      inside = inside && p >= 0 && p < param->shape[d];
      at = at * param->shape[d] + p;
    }
    if (inside) visit(local, flat, at);
    for (int d = param->rank - 1; d >= 0; d--) {
      if (++j[d] < local->dims[d]) break;
      j[d] = 0;
    }
  }
}

static void cs1_load(const struct cs1_local_state *local, int64_t flat,
                     int64_t at) {
  size_t size = cs1_elem_size(local->elem);
  memcpy((unsigned char *)local->memory + flat * size,
         (const unsigned char *)cs1_pe.data[local->param] + at * size, size);
}

/* Gives an element back, unless it is a partial sum this PE sent on. */
static void cs1_give_back(const struct cs1_local_state *local, int64_t flat,
                          int64_t at) {
  if (local->partial && cs1_pe.sent_by[local->param][at] == cs1_pe.ordinal) {
    return;
  }
  if (cs1_pe.given[local->param][at]) {
    tsl_error("PE (%lld, %lld) gives back element %lld of '%s', which "
              "another PE gave back",
              (long long)cs1_pe.x, (long long)cs1_pe.y, (long long)at,
              cs1_program.params[local->param].name);
  }
  size_t size = cs1_elem_size(local->elem);
  memcpy((unsigned char *)cs1_pe.data[local->param] + at * size,
         (const unsigned char *)local->memory + flat * size, size);
  cs1_pe.given[local->param][at] = 1;
}

/* Counts the PEs holding a partial sum of an element. */
static void cs1_count_holder(const struct cs1_local_state *local,
                             int64_t flat, int64_t at) {
  (void)flat;
  if (local->partial) cs1_pe.holders[local->param][at]++;
}

/* The chain of an element: PEs hold its partial sums in the order they
   run, each adding what the one before sent to its own, the last giving
   the sum back: ((p0 + p1) + p2) ..., in the element type's arithmetic,
   as run-sim adds them. */
static void cs1_check_partial(int param, int64_t element) {
  if (param < 0 || param >= cs1_program.num_params ||
      cs1_program.params[param].kind == CS1_IN || element < 0 ||
      element >= cs1_count(&cs1_program.params[param]) ||
      cs1_pe.holders[param][element] <= 0) {
    tsl_error("PE (%lld, %lld) holds no partial sum of element %lld of "
              "parameter %d",
              (long long)cs1_pe.x, (long long)cs1_pe.y, (long long)element,
              param);
  }
}
void cs1_recv_partial_f32(int param, int64_t element, float *sum) {
  cs1_check_partial(param, element);
  if (!cs1_pe.arrived[param][element]) return;
  cs1_pe.arrived[param][element] = 0;
  *sum = ((const float *)cs1_pe.mailbox[param])[element] + *sum;
}
void cs1_recv_partial_f16(int param, int64_t element, _Float16 *sum) {
  cs1_check_partial(param, element);
  if (!cs1_pe.arrived[param][element]) return;
  cs1_pe.arrived[param][element] = 0;
  *sum = (_Float16)((float)((const _Float16 *)cs1_pe.mailbox[param])[element] +
                    (float)*sum);
}
static bool cs1_send_partial(int param, int64_t element) {
  cs1_check_partial(param, element);
  if (--cs1_pe.holders[param][element] == 0) return false;
  cs1_pe.arrived[param][element] = 1;
  cs1_pe.sent_by[param][element] = cs1_pe.ordinal;
  return true;
}
bool cs1_send_partial_f32(int param, int64_t element, float sum) {
  if (!cs1_send_partial(param, element)) return false;
  ((float *)cs1_pe.mailbox[param])[element] = sum;
  return true;
}
bool cs1_send_partial_f16(int param, int64_t element, _Float16 sum) {
  if (!cs1_send_partial(param, element)) return false;
  ((_Float16 *)cs1_pe.mailbox[param])[element] = sum;
  return true;
}

static void cs1_poison(const struct cs1_local_state *local) {
  for (int64_t k = 0; k < local->size; k++) {
    if (local->elem == CS1_F32) {
      ((float *)local->memory)[k] = NAN;
    } else {
      ((_Float16 *)local->memory)[k] = (_Float16)NAN;
    }
  }
}

/* Runs a recv task once per element of its parameter that arrives, in
   row-major order. */
static void cs1_receive_all(const struct cs1_task_state *task) {
  const struct cs1_param *param = &cs1_program.params[task->param];
  for (int d = 0; d < param->rank; d++) cs1_pe.index[d] = 0;
  int64_t count = cs1_count(param);
  for (int64_t flat = 0; flat < count; flat++) {
    bool zero;
    if (param->elem == CS1_F32) {
      cs1_pe.value_f32 = ((const float *)cs1_pe.data[task->param])[flat];
      zero = cs1_pe.value_f32 == 0;
    } else {
      cs1_pe.value_f16 = ((const _Float16 *)cs1_pe.data[task->param])[flat];
      zero = (float)cs1_pe.value_f16 == 0;
    }
    /* A sparse input's zeros are not sent. */
    if (!(zero && param->arrival == CS1_SPARSE)) task->task();
    for (int d = param->rank - 1; d >= 0; d--) {
      if (++cs1_pe.index[d] < param->shape[d]) break;
      cs1_pe.index[d] = 0;
    }
  }
}

/* Runs the setup of PE (x, y): its configurations, local arrays and
   tasks registered. */
static void cs1_set_up_pe(int64_t x, int64_t y) {
  memset(cs1_pe.configs, 0, sizeof(cs1_pe.configs));
  cs1_pe.num_locals = 0;
  cs1_pe.num_tasks = 0;
  cs1_pe.x = x;
  cs1_pe.y = y;
  int pe_class = cs1_program.class_of == NULL
                     ? 0
                     : cs1_program.class_of[y * cs1_program.grid_x + x];
  if (pe_class < 0 || pe_class >= cs1_program.num_classes) {
    tsl_error("PE (%lld, %lld) is of class %d, of %d", (long long)x,
              (long long)y, pe_class, cs1_program.num_classes);
  }
  cs1_program.setups[pe_class]();
}

static void cs1_run_pe(int64_t x, int64_t y) {
  cs1_set_up_pe(x, y);
  for (int k = 0; k < cs1_pe.num_locals; k++) {
    const struct cs1_local_state *local = &cs1_pe.locals[k];
    cs1_poison(local);
    if (local->param >= 0 &&
        cs1_program.params[local->param].kind != CS1_OUT) {
      cs1_for_each_held(local, cs1_load);
    }
  }
  for (int k = 0; k < cs1_pe.num_tasks; k++) {
    if (cs1_pe.tasks[k].param < 0) {
      cs1_pe.tasks[k].task();
    } else {
      cs1_receive_all(&cs1_pe.tasks[k]);
    }
  }
  for (int k = 0; k < cs1_pe.num_locals; k++) {
    const struct cs1_local_state *local = &cs1_pe.locals[k];
    if (local->param >= 0 &&
        cs1_program.params[local->param].kind != CS1_IN) {
      cs1_for_each_held(local, cs1_give_back);
    }
  }
}

int main(int argc, char **argv) {
  const struct cs1_program *program = &cs1_program;
  bool reads = false;
  for (int k = 0; k < program->num_params; k++) {
    reads = reads || program->params[k].kind != CS1_OUT;
  }
  const char *inputs = NULL;
  const char *outputs = NULL;
  if (!tsl_parse_arguments(argc, argv, reads, true, &inputs, &outputs)) {
    return 2;
  }
  int status = 1;
  void **data = calloc((size_t)program->num_params + 1, sizeof(void *));
  unsigned char **given =
      calloc((size_t)program->num_params + 1, sizeof(unsigned char *));
  if (data == NULL || given == NULL) tsl_error("out of memory");
  int64_t **holders = calloc((size_t)program->num_params + 1, sizeof(int64_t *));
  void **mailbox = calloc((size_t)program->num_params + 1, sizeof(void *));
  unsigned char **arrived =
      calloc((size_t)program->num_params + 1, sizeof(unsigned char *));
  int64_t **sent_by = calloc((size_t)program->num_params + 1, sizeof(int64_t *));
  if (holders == NULL || mailbox == NULL || arrived == NULL || sent_by == NULL) {
    tsl_error("out of memory");
  }
  cs1_pe.data = data;
  cs1_pe.given = given;
  cs1_pe.holders = holders;
  cs1_pe.mailbox = mailbox;
  cs1_pe.arrived = arrived;
  cs1_pe.sent_by = sent_by;
  for (int k = 0; k < program->num_params; k++) {
    const struct cs1_param *param = &program->params[k];
    size_t size = cs1_elem_size(param->elem);
    const char *descr = param->elem == CS1_F32 ? "<f4" : "<f2";
    if (param->kind != CS1_IN) {
      size_t count = (size_t)cs1_count(param);
      given[k] = calloc(count, 1);
      holders[k] = calloc(count, sizeof(int64_t));
      mailbox[k] = calloc(count, size);
      arrived[k] = calloc(count, 1);
      sent_by[k] = malloc(count * sizeof(int64_t));
      if (given[k] == NULL || holders[k] == NULL || mailbox[k] == NULL ||
          arrived[k] == NULL || sent_by[k] == NULL) {
        tsl_error("out of memory");
      }
      for (size_t e = 0; e < count; e++) sent_by[k][e] = -1;
    }
    if (param->kind == CS1_OUT) {
      data[k] = calloc((size_t)cs1_count(param), size);
      if (data[k] == NULL) tsl_error("out of memory");
    } else {
      data[k] = tsl_read_npy(inputs, param->name, descr, size, param->rank,
                             param->shape);
      if (data[k] == NULL) goto done;
    }
  }
  /* The chains of partial sums: which PEs hold one of each element. */
  for (int64_t y = 0; y < program->grid_y; y++) {
    for (int64_t x = 0; x < program->grid_x; x++) {
      cs1_set_up_pe(x, y);
      for (int k = 0; k < cs1_pe.num_locals; k++) {
        if (cs1_pe.locals[k].param < 0) continue;
        if (cs1_program.params[cs1_pe.locals[k].param].kind == CS1_IN) continue;
        cs1_for_each_held(&cs1_pe.locals[k], cs1_count_holder);
      }
    }
  }
  cs1_pe.ordinal = 0;
  for (int64_t y = 0; y < program->grid_y; y++) {
    for (int64_t x = 0; x < program->grid_x; x++) {
      cs1_run_pe(x, y);
      cs1_pe.ordinal++;
    }
  }
  if (!tsl_make_directories(outputs)) goto done;
  for (int k = 0; k < program->num_params; k++) {
    const struct cs1_param *param = &program->params[k];
    if (param->kind == CS1_IN) continue;
    if (!tsl_write_npy(outputs, param->name,
                       param->elem == CS1_F32 ? "<f4" : "<f2",
                       cs1_elem_size(param->elem), param->rank, param->shape,
                       data[k])) {
      goto done;
    }
  }
  status = 0;
done:
  for (int k = 0; k < program->num_params; k++) {
    free(data[k]);
    free(given[k]);
    free(holders[k]);
    free(mailbox[k]);
    free(arrived[k]);
    free(sent_by[k]);
  }
  free(data);
  free(given);
  free(holders);
  free(mailbox);
  free(arrived);
  free(sent_by);
  return status;
}
