// The loop level compiled for interpretation: each `proc` and `instr` becomes
// a tree of statements and expressions with enum opcodes, variables resolved
// to frame slots and literals converted to their types, so that running a
// kernel never looks at a symbol's spelling. Built by loop_compiler.h, run
// by loop_executor.h. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_PROGRAM_H_
#define TESSEL_LIBS_INTERP_LOOP_PROGRAM_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "libs/interp/scalar.h"
#include "libs/ir/module.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {
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
  kSelect,          // args[0] (control) ? args[1] : args[2]
  kCast,            // (cast type args[0])
  kReadDataConfig,  // config field `slot`
};

struct Expr {
  ExprOp op = ExprOp::kIntConst;
  ElemType type = ElemType::kF32;  // of a data expression
  ArithOp arith = ArithOp::kAdd;
  CompareOp compare = CompareOp::kEq;
  int32_t slot = -1;
  int64_t value = 0;
  Scalar constant;
  const Sexpr* where = nullptr;
  std::vector<Expr> args;
};

// A data argument, a `let` or a window: view `base`, narrowed by one
// selector per dimension (none: the view itself).
struct Selector {
  const Sexpr* where = nullptr;
  bool point = true;
  Expr lo;  // the index of a point
  Expr hi;
};
struct WindowRef {
  int32_t base = -1;
  std::vector<Selector> selectors;
  const Sexpr* where = nullptr;
};

struct CompiledProc;

struct CallArg {
  bool is_data = false;
  Expr control;
  WindowRef window;
};

enum class StmtOp : uint8_t {
  kFor,          // slot: the variable; exprs: lo, hi; body
  kIf,           // exprs: cond; body, orelse
  kAlloc,        // slot: the view; elem; exprs: dimensions
  kAssign,       // slot: the view; exprs: indices..., value
  kReduce,       // as kAssign
  kLet,          // slot: the new view; window
  kCall,         // callee, args
  kWriteConfig,  // slot: the config field; exprs: value
};

struct Stmt {
  StmtOp op = StmtOp::kFor;
  const Sexpr* where = nullptr;
  int32_t slot = -1;
  ElemType elem = ElemType::kF32;
  std::vector<Expr> exprs;
  std::vector<Stmt> body;
  std::vector<Stmt> orelse;
  WindowRef window;
  const CompiledProc* callee = nullptr;
  std::vector<CallArg> args;
};

struct CompiledParam {
  const Param* param = nullptr;
  int32_t slot = -1;       // a control slot, or a view slot for data
  std::vector<Expr> dims;  // of data parameters, over earlier parameters
};

struct CompiledProc {
  const Procedure* proc = nullptr;
  std::vector<CompiledParam> params;
  std::vector<Expr> asserts;
  std::vector<Stmt> body;
  // Frame layout; the names are for diagnostics.
  std::vector<std::string> control_names;
  std::vector<std::string> view_names;
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
