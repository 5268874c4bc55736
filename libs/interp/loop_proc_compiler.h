// The compiler of one procedure's body (loop_compiler.h): expressions in
// loop_expr_compiler.cc, statements and parameters in loop_compiler.cc.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_PROC_COMPILER_H_
#define TESSEL_LIBS_INTERP_LOOP_PROC_COMPILER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/interp/loop_program.h"
#include "libs/ir/vector_lanes.h"
#include "libs/ir/node.h"

namespace tessel {
namespace cs1 {
struct PeProgram;
}
namespace loop {

class ProcCompiler;

// Compiles procedures on demand, each once, detects recursion, and lays out
// the configuration state.
class ModuleCompiler {
 public:
  ModuleCompiler(const ir::Module& module, LoopProgram& program);

  // The slot of field `field` of the config `config`, or -1.
  int32_t FindConfigSlot(const ir::Node* config,
                         const std::string& field) const;
  const ConfigSlot& config_slot(int32_t slot) const {
    return program_.config_slots[slot];
  }

  // `proc` compiled; `at` is the call that needs it (for diagnostics).
  absl::StatusOr<const CompiledProc*> Get(const ir::Node& proc,
                                          const ir::Node& at);

 private:
  LoopProgram& program_;
  absl::flat_hash_map<const ir::Node*, const CompiledProc*> done_;
  absl::flat_hash_set<const ir::Node*> in_progress_;
  absl::flat_hash_map<std::pair<const ir::Node*, std::string>, int32_t>
      config_index_;
};

// What a binder (a Param, For, Alloc or Let) is in the frame.
struct Binding {
  bool is_data = false;
  int32_t slot = -1;
  int rank = 0;  // of data
};

class ProcCompiler {
 public:
  ProcCompiler(ModuleCompiler& module, CompiledProc& out)
      : module_(module), out_(out) {}

  absl::Status Compile();
  // A pe-program instead (cs1_compiler.cc): its grid coordinates, local
  // arrays, recv indices and received values are the frame's slots, and
  // each task's call is a statement.
  absl::Status CompilePeProgram(cs1::PeProgram& out);

 private:
  // Frame slots, by binder.
  int32_t DeclareControl(const ir::Node& binder);
  int32_t DeclareData(const ir::Node& binder, int rank);
  // The binding of the binder `ref` (a Ref) refers to; `data` says which
  // kind the position needs.
  absl::StatusOr<Binding> Lookup(const ir::Node& ref, bool data) const;

  // Expressions (loop_expr_compiler.cc).
  absl::StatusOr<Expr> Control(const ir::Node& e);
  absl::StatusOr<Expr> Data(const ir::Node& e);
  absl::StatusOr<Expr> Operands(const ir::Node& e, Expr expr, bool data);
  absl::StatusOr<Expr> Comparison(const ir::Node& e, CompareOp op);
  // An element read: (NAME I...) or a scalar's NAME.
  absl::StatusOr<Expr> Element(const ir::Node& e);
  // The indices of (NAME I...) for a view of `rank` dimensions.
  absl::StatusOr<std::vector<Expr>> Indices(const ir::Node& load, int rank);
  // The slot of the field a ReadConfig or WriteConfig names.
  absl::StatusOr<int32_t> ConfigField(const ir::Node& e);
  // The dimensions of a declared type, `decl` standing for its constants.
  absl::StatusOr<std::vector<Expr>> Dims(const ir::Type& type,
                                         const ir::Node& decl);
  // A data argument or let: NAME or (window NAME SEL...); `rank` is the
  // result's.
  absl::StatusOr<WindowRef> Window(const ir::Node& e, int& rank);
  // (dsd NAME BASE (EXTENT STRIDE)...), of rank 4 (cs1_compiler.cc).
  absl::StatusOr<WindowRef> Descriptor(const ir::Node& e, int& rank);

  // The vector level (loop_vector_compiler.cc): vector expressions, lane
  // masks, scalars of vectors (reduction, a lane of extract), statements.
  absl::StatusOr<Expr> Vector(const ir::Node& e);
  absl::StatusOr<Expr> Mask(const ir::Node& e);
  absl::StatusOr<Expr> VectorScalar(const ir::Node& e);
  absl::StatusOr<Expr> VectorOperands(const ir::Node& e, Expr expr,
                                      size_t first, size_t count);
  absl::StatusOr<Stmt> AssignVector(const ir::Node& s);
  absl::StatusOr<Stmt> TransferWrite(const ir::Node& s);
  // A transfer-read's Expr or a transfer-write's Stmt: its indices, and
  // its mask after `value` (the pad, the value written).
  absl::Status TransferOperands(const ir::TransferParts& parts,
                                std::vector<Expr>& out, Expr value);
  // (outer-product A B [ACC]) as fma or * of A's and B's lanes spread
  // over the result's (vector_lanes.h).
  absl::StatusOr<Expr> OuterProduct(const ir::Node& e, Expr expr);

  // Statements (loop_compiler.cc).
  absl::Status Block(absl::Span<ir::Node* const> stmts, std::vector<Stmt>& out);
  absl::StatusOr<Stmt> Statement(const ir::Node& s);
  absl::StatusOr<Stmt> For(const ir::Node& s);
  absl::StatusOr<Stmt> If(const ir::Node& s);
  absl::StatusOr<Stmt> Alloc(const ir::Node& s);
  absl::StatusOr<Stmt> Update(const ir::Node& s);
  absl::StatusOr<Stmt> Let(const ir::Node& s);
  absl::StatusOr<Stmt> Call(const ir::Node& s);
  absl::StatusOr<Stmt> WriteConfig(const ir::Node& s);
  absl::Status Param(const ir::Node& param);

  ModuleCompiler& module_;
  CompiledProc& out_;
  absl::flat_hash_map<const ir::Node*, Binding> bindings_;
};

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_PROC_COMPILER_H_
