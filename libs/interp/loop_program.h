// The loop level compiled for interpretation: each `proc` and `instr` becomes
// a tree of statements and expressions with enum opcodes, variables resolved
// to frame slots and literals converted to the values of their elaborated
// types, so that running a kernel never walks the IR. Every node keeps the IR
// node it came from (`where`), for diagnostics. Built by loop_compiler.h,
// planned by loop_plan.h (where each expression keeps its values, which
// loops run a batch of iterations at a time), run by loop_executor.h.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_PROGRAM_H_
#define TESSEL_LIBS_INTERP_LOOP_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "libs/interp/scalar.h"
#include "libs/ir/node.h"

namespace tessel {
namespace tensor {
struct Term;
}
namespace loop {

enum class ExprOp : uint8_t {
  // Control expressions: 64-bit integers; bools are 0 and 1.
  kIntConst,    // value
  kControlVar,  // slot of a control variable
  kAddIndex,    // args[0] + args[1], and so on, checked for overflow
  kSubIndex,
  kMulIndex,
  kNegIndex,
  kFloorDiv,  // floor(args[0] / args[1]), the divisor positive
  kFloorMod,
  kMinIndex,
  kMaxIndex,
  kCompareIndex,  // compare on two control expressions
  kCompareData,   // compare on two data expressions
  kAnd,
  kOr,
  kNot,
  kStride,             // the stride of dimension `value` of view `slot`
  kReadControlConfig,  // config field `slot`
  // Data expressions: Scalars of type `type`.
  kDataConst,  // constant
  kLoad,       // view `slot` at indices args
  kArith,      // arith on args[0], args[1]
  kNegate,
  kFma,             // args[0] * args[1] + args[2], rounded once
  kSelect,          // args[0] (control) ? args[1] : args[2]
  kCast,            // (cast type args[0])
  kReadDataConfig,  // config field `slot`
  // Scalars from vectors (data expressions).
  kReduction,    // `arith` (add, mul, max, min) over the lanes of args[0]
  kExtractLane,  // the lane of args[0] at `ints`
  // Vector expressions: Vecs of element type `type` and shape `shape`.
  kVectorVar,      // the vector variable of view `slot`, read whole
  kTransferRead,   // view `slot` at indices args[0..n-1], pad args[n],
                   // (`value` 1) mask args[n+1]; `ints`: the view
                   // dimension of each lane dimension
  kBroadcast,      // args[0], a scalar or (`value` 1) a vector
  kVectorArith,    // arith on args[0], args[1]
  kVectorNegate,   // args[0]
  kVectorSelect,   // mask args[0] ? args[1] : args[2], lane by lane
  kVectorCast,     // args[0] to `type`
  kVectorFma,      // args[0] * args[1] + args[2]
  kContract,       // args[0..2] with iteration dimensions `maps`,
                   // combined by `arith`
  kExtractVector,  // the sub-vector of args[0] at `ints`
  kInsert,         // args[1] with args[0] (a scalar or, `value` 1, a
                   // vector) at `ints`
  kShuffle,        // lane l is lane ints[l] of args[0]
  kInsertSlice,    // args[1], with lane ints[l] of args[0] where >= 0
  kMultiReduction,  // args[1] combined by `arith` with args[0]'s lanes
                    // `maps` (one table per step), in order or (`value`
                    // 1) halving
  // Lane masks, the conditions of a select of vectors.
  kMaskCompare,  // compare on the vectors args[0], args[1]
  kMaskAnd,
  kMaskOr,
  kMaskNot,
  kMaskCreate,  // lane (k...) set where every k_j < args[j]
};

struct Expr {
  ExprOp op = ExprOp::kIntConst;
  ElemType type = ElemType::kF32;  // of a data expression
  ArithOp arith = ArithOp::kAdd;
  CompareOp compare = CompareOp::kEq;
  int32_t slot = -1;
  int64_t value = 0;
  Scalar constant;
  const ir::Node* where = nullptr;
  std::vector<Expr> args;
  // The vector level: a vector result's shape, literal positions, the
  // iteration dimensions of contract's operands.
  std::vector<int64_t> shape;
  std::vector<int64_t> ints;
  std::vector<std::vector<int>> maps;

  // An index of the tensor level (lowered by tensor_lowering.h): its
  // errors are reported in that level's words ("index 4 is out of bounds
  // for an array of 4 elements", "index arithmetic overflows 64 bits").
  bool tensor_level = false;

  // Set by the planner. The executor computes an expression for many lanes
  // at once (the iterations of a batch, the lanes of a vector, or one):
  // its values are words [column, column + capacity) of its procedure's
  // arena, one per lane, as column_ops.h lays them out.
  int32_t column = -1;
  int32_t lanes = 1;  // the column's: a vector's lanes, else a batch's or 1
  // Whether its value may differ between the iterations of its batch
  // (else it is computed once per batch, for the first).
  bool varying = false;
  // Of an index that varies in a region: its coefficient for each of the
  // region's loop variables when it is their sum, so weighted, plus what
  // does not vary (and literals times those); else empty. (A region's
  // variable has its loop's position in the region in `value`.)
  std::vector<int64_t> affine;
};

// A data argument, a `let` or a window: view `base`, narrowed by one
// selector per dimension (none: the view itself).
struct Selector {
  const ir::Node* where = nullptr;
  bool point = true;
  Expr lo;  // the index of a point
  Expr hi;
  int64_t step = 1;  // an interval's
  int64_t row = 0;   // a split's row length, else 0
};
struct WindowRef {
  int32_t base = -1;
  std::vector<Selector> selectors;
  // The dimensions the selectors keep, in the window's order (empty: in
  // theirs).
  std::vector<int> order;
  const ir::Node* where = nullptr;
  // A SIMD descriptor (dsd) instead of selectors: the window of `base`, a
  // dense tensor seen as flat memory, from element `offset` with these
  // extents and strides (the CS-1 level).
  bool is_descriptor = false;
  Expr offset;
  std::vector<int64_t> extents;
  std::vector<int64_t> strides;
};

struct CompiledProc;

struct CallArg {
  bool is_data = false;
  Expr control;
  WindowRef window;
};

enum class StmtOp : uint8_t {
  kFor,            // slot: the variable; exprs: lo, hi; body
  kIf,             // exprs: cond; body, orelse
  kAlloc,          // slot: the view; elem; exprs: dimensions
  kAssign,         // slot: the view; exprs: indices..., value
  kReduce,         // as kAssign
  kLet,            // slot: the new view; window
  kCall,           // callee, args
  kWriteConfig,    // slot: the config field; exprs: value
  kAssignVector,   // slot: the vector variable's view; exprs: value
  kTransferWrite,  // slot: the view; exprs: indices..., value[, mask];
                   // lane_dims
  // Only in lowered tensor-level functions (tensor_lowering.h):
  kSetControl,     // slot: a control slot; exprs: its new value
  kAccessPattern,  // slot: the view of the value of `access`, whose
                   // operands are the views of args (dense)
};

struct Region;

struct Stmt {
  StmtOp op = StmtOp::kFor;
  const ir::Node* where = nullptr;
  int32_t slot = -1;
  ElemType elem = ElemType::kF32;
  std::vector<Expr> exprs;
  std::vector<Stmt> body;
  std::vector<Stmt> orelse;
  WindowRef window;
  const CompiledProc* callee = nullptr;
  std::vector<CallArg> args;
  const tensor::Term* access = nullptr;
  // kTransferWrite: the view dimension each lane dimension runs along.
  std::vector<int64_t> lane_dims;

  // Set by the planner. On a kFor: the loop nest it starts, when that runs
  // a batch of iterations at a time; on a kFor of a region's nest, the
  // column of its variable, whose first lane holds the variable when the
  // nest runs iteration by iteration.
  std::unique_ptr<Region> region;
  int32_t var_column = -1;
  int32_t region_index = -1;  // of the region's loops: Region::index
  // On a kAssign in a region whose value is (OP TARGET X) or (OP X TARGET),
  // TARGET reading the element assigned: TARGET's position (0 or 1) in the
  // value; the batch then computes X for every iteration first and the
  // accumulation in order.
  int8_t accumulates = -1;
};

// A perfect loop nest whose iterations a batch runs together: the executor
// computes each statement of the body for all iterations of a batch before
// the next, which the planner has checked computes what running them one by
// one does (loop_plan.h).
struct Region {
  int32_t index = -1;  // among its procedure's regions
  // The loops, outermost first (the first holds the region); none's bounds
  // use another's variable.
  std::vector<const Stmt*> loops;
  // Per loop, the column holding its variable for each iteration.
  std::vector<int32_t> var_columns;
  // The views the body accesses, and whether it writes them: two of them
  // that share elements make the executor run the nest iteration by
  // iteration.
  std::vector<int32_t> views;
  std::vector<bool> written;
};

struct CompiledParam {
  const ir::Node* decl = nullptr;  // the Param
  ir::ParamKind kind = ir::ParamKind::kSize;
  ControlType control = ControlType::kSize;  // of a control parameter
  ElemType elem = ElemType::kF32;            // of a data parameter
  bool is_window = false;                    // declared as a window
  int32_t slot = -1;       // a control slot, or a view slot for data
  std::vector<Expr> dims;  // of data parameters, over earlier parameters

  const std::string& name() const { return decl->name(); }
  bool is_data() const { return kind >= ir::ParamKind::kIn; }
  bool is_read() const {
    return kind == ir::ParamKind::kIn || kind == ir::ParamKind::kInOut;
  }
  bool is_written() const {
    return kind == ir::ParamKind::kOut || kind == ir::ParamKind::kInOut;
  }
};

struct CompiledProc {
  const ir::Node* proc = nullptr;  // the Proc or Instr
  int32_t index = -1;              // in its LoopProgram's procs
  std::vector<CompiledParam> params;
  std::vector<Expr> asserts;
  std::vector<const ir::Node*> assert_stmts;  // the Asserts, for diagnostics
  std::vector<Stmt> body;
  // Frame layout; the names are for diagnostics.
  std::vector<std::string> control_names;
  std::vector<std::string> view_names;
  // Set by the planner: the words of the arena its expressions' columns
  // take, and the literals, whose columns hold them from the start.
  int32_t arena_words = 0;
  int32_t regions = 0;
  std::vector<std::pair<const Expr*, int32_t>> constants;  // with lanes
};

// One field of one `config`, as a slot of the global configuration state.
struct ConfigSlot {
  std::string config;
  std::string field;
  bool is_data = false;
  ElemType elem = ElemType::kF32;             // of a data field
  ControlType control = ControlType::kIndex;  // of a control field
};

struct LoopProgram {
  std::vector<std::unique_ptr<CompiledProc>> procs;
  const CompiledProc* entry = nullptr;
  std::vector<ConfigSlot> config_slots;
};

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_PROGRAM_H_
