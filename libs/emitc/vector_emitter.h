// Translates the vector level (formats/tir/README.md, "Vector level") of a
// proc to C statements on GCC/Clang vector extension values
// (vector_types.h), as MLIR lowers its vector dialect towards LLVM: every
// vector op becomes one statement computing a named C vector, so that a
// statement never holds two rounding operations a compiler could fuse,
// operands are evaluated once however often an op reads them, and helpers
// take vectors through pointers (vector_helpers.h).
//
// A vector variable is a C vector local; a vector parameter is a pointer to
// its lanes, held densely (a `.npy` of its shape in the harness), read and
// written through tsl_vload/tsl_vstore. The statements an expression needs
// are collected as lines, which the caller writes before the statement
// that uses the expression (TakeLines).
#ifndef TESSEL_LIBS_EMITC_VECTOR_EMITTER_H_
#define TESSEL_LIBS_EMITC_VECTOR_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/scope.h"
#include "libs/emitc/vector_helpers.h"
#include "libs/emitc/vector_types.h"
#include "libs/ir/node.h"
#include "libs/ir/vector_lanes.h"

namespace tessel::emitc {

class VectorEmitter {
 public:
  // A C line an expression needs, `depth` levels inside the statement's.
  struct Line {
    int depth = 0;
    std::string text;
    Uses uses;
  };

  VectorEmitter(const ExprEmitter& expr, Scope& scope)
      : expr_(expr), scope_(scope) {}

  // A vector expression: the name of a C vector holding its value.
  absl::StatusOr<CExpr> Vector(const ir::Node& e);
  // A scalar read from a vector: `reduction` or a full-depth `extract`.
  absl::StatusOr<CExpr> Scalar(const ir::Node& e);
  // A scalar `select`, which evaluates only the operand it chooses: an
  // if statement when either operand needs statements of its own.
  absl::StatusOr<CExpr> ScalarSelect(const ir::Node& e);
  // A pointer to the lanes of the vector variable `name`, as a call
  // passes it: `v` (a parameter) or `(float *)&acc`.
  absl::StatusOr<CExpr> Pointer(const ir::Node& name);

  // The statements (assign V VEXPR) and (transfer-write V A I...), as
  // lines.
  absl::Status Assign(const ir::Node& stmt);
  absl::Status TransferWrite(const ir::Node& stmt);

  // The lines collected since the last call.
  std::vector<Line> TakeLines();

 private:
  absl::StatusOr<Binding*> Variable(const ir::Node& name) const;
  // Computes `e` into `dest` (an lvalue of its C type) if not null, else
  // into a new temporary; returns where the value is.
  absl::StatusOr<CExpr> Compute(const ir::Node& e, const CExpr* dest);
  absl::StatusOr<CExpr> Elementwise(const ir::Node& e, const VectorShape& shape,
                                    const CExpr* dest);
  absl::StatusOr<CExpr> Cast(const ir::Node& e, const VectorShape& shape,
                             const CExpr* dest);
  absl::StatusOr<CExpr> Fma(const ir::Node& e, const VectorShape& shape,
                            const CExpr* dest);
  // a * b + c on C vectors of `shape`, rounded once for floats.
  CExpr FmaOf(const std::vector<CExpr>& operands, const VectorShape& shape,
              const CExpr* dest);
  // The ops that move lanes (vector_lanes.h): lane l of the result is lane
  // lanes[l] of `source`'s value.
  absl::StatusOr<CExpr> ShuffleOf(const ir::Node& source,
                                  const std::vector<int64_t>& lanes,
                                  const VectorShape& shape, const CExpr* dest);
  absl::StatusOr<CExpr> InsertStridedSlice(const ir::Node& e,
                                           const VectorShape& shape,
                                           const CExpr* dest);
  absl::StatusOr<CExpr> OuterProduct(const ir::Node& e,
                                     const VectorShape& shape,
                                     const CExpr* dest);
  absl::StatusOr<CExpr> MultiReduction(const ir::Node& e,
                                       const VectorShape& shape,
                                       const CExpr* dest);
  // (create-mask (shape D...) B...) as signed lanes of `type`.
  absl::StatusOr<CExpr> CreateMask(const ir::Node& e, const VectorCType& type);
  absl::StatusOr<CExpr> Contract(const ir::Node& e, const VectorShape& shape,
                                 const CExpr* dest);
  absl::StatusOr<CExpr> Insert(const ir::Node& e, const VectorShape& shape,
                               const CExpr* dest);
  absl::StatusOr<CExpr> Broadcast(const ir::Node& e, const VectorShape& shape,
                                  const CExpr* dest);
  // A lane mask of `type` (signed lanes as wide as the selected ones).
  absl::StatusOr<CExpr> Mask(const ir::Node& e, const VectorCType& type);
  // The lanes of `if_set` where `mask` is set, of `otherwise` elsewhere.
  CExpr SelectLanes(const CExpr& mask, const CExpr& if_set,
                    const CExpr& otherwise, const VectorCType& type);

  // The helper arguments of the transfer `parts` of a vector of `shape`
  // on `view` (its pointer, the indices, extents and strides of the lane
  // dimensions). A lane dimension declared in bounds (in-bounds 1, which
  // the verifier proves) moves the pointer instead and takes index 0 and
  // extent its lanes, so that the helper's bounds tests are constants.
  absl::StatusOr<std::vector<CExpr>> TransferArguments(
      View view, const ir::TransferParts& parts, const VectorShape& shape);

  // `dest = value;`, or `T t = value;` for a new temporary t.
  CExpr Emit(const VectorCType& type, const CExpr& value, const CExpr* dest);
  // `helper(&dest, arguments...);`, or `T t;` and `helper(&t, ...);`.
  CExpr EmitCall(const VectorCType& type, const VectorHelper& helper,
                 std::vector<CExpr> arguments, const CExpr* dest);
  // `value` itself, or copied to `dest`.
  CExpr Result(const VectorCType& type, const CExpr& value, const CExpr* dest);
  void AddLine(std::string text, Uses uses);

  const ExprEmitter& expr_;
  Scope& scope_;
  std::vector<Line> lines_;
};

// `&v`, for a helper argument.
CExpr AddressOf(const CExpr& v);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_VECTOR_EMITTER_H_
