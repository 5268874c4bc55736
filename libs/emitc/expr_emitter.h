// Translates TIR control and data expressions, element accesses and window
// expressions (formats/tir/README.md, "Expressions") of the typed IR to C
// expressions that compute exactly what the TIR semantics say. Every type
// comes from elaboration (Node::type): a node of a control type is a
// control value, one of an element type is data of that type, a literal
// included.
// - control values are int64_t (bool for conditions); `/` and `%` are floor
//   division and modulo, written as plain C `/` and `%` when the numerator
//   is known to be non-negative and with tsl_floordiv/tsl_floormod
//   otherwise;
// - data arithmetic wraps as TIR says: i8 results are wrapped in
//   `(int8_t)(...)` after every operation, i32 arithmetic, integer
//   division and float to integer casts go through helpers (helpers.h);
//   literals are written in their type (`0.5f`, `2.0`); `max`/`min` are
//   helper calls, which evaluate each operand once;
// - tensors are row-major: (C i j) of a (f32 64 16) is `C[i * 16 + j]`;
//   windows address through their base and strides.
// The module has been verified: what the verifier rejects is not checked
// again. A form emit-c has no translation for (one the verifier rejects,
// or one of a level emit-c does not translate) is an error at the form.
#ifndef TESSEL_LIBS_EMITC_EXPR_EMITTER_H_
#define TESSEL_LIBS_EMITC_EXPR_EMITTER_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/scope.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

class VectorEmitter;

class ExprEmitter {
 public:
  ExprEmitter(const GlobalNames& globals, const Scope& scope)
      : globals_(globals), scope_(scope) {}

  // Where data expressions that read vectors (reduction, extract) are
  // translated, and scalar selects with operands that need statements; a
  // proc's emitter has one, the harness's none.
  void set_vectors(VectorEmitter* vectors) { vectors_ = vectors; }

  // A control expression: an int64_t or, for comparisons and logic, a
  // bool. Comparisons may compare data values (in `select` conditions).
  absl::StatusOr<CExpr> Control(const ir::Node& expr) const;
  // A data expression, of its element type.
  absl::StatusOr<CExpr> Data(const ir::Node& expr) const;

  // The location `(assign TARGET ...)` or `(reduce TARGET ...)` stores to:
  // a scalar name or an element `(NAME I...)`.
  struct Target {
    CExpr lvalue;
    ElemType elem;
  };
  absl::StatusOr<Target> AssignTarget(const ir::Node& target) const;

  // The address of the element a `(prefetch A I...)` names, computed in
  // uintptr_t arithmetic: TIR lets a prefetch name an element past `A`, and
  // C's `&A[i]` past an array is undefined (GCC rejects it with
  // -Warray-bounds where it knows the array's size).
  absl::StatusOr<CExpr> PrefetchAddress(const ir::Node& prefetch) const;

  // A tensor or window argument: a name or `(window NAME SEL...)`.
  absl::StatusOr<View> WindowOf(const ir::Node& expr) const;
  // TIR's `(op a b)` for op + - * / on values of `type`.
  static CExpr Arithmetic(ir::Op op, const CExpr& a, const CExpr& b,
                          ElemType type);
  // Whether C's `x += v` computes TIR's reduce into `type` (else the sum is
  // written with Arithmetic).
  static bool ReducesWithPlusEquals(ElemType type);

  // A pointer to the first element of `view` (`A`, `&A[i * 16]`).
  static CExpr FirstElement(const View& view);
  // The window struct of `view`: the struct parameter itself when `view` is
  // a whole window parameter of `type`, a compound literal otherwise.
  static CExpr WindowValue(const View& view, const WindowType& type);

  // A scalar data name's value (`*alpha`, `x`) and address (`alpha`, `&x`).
  absl::StatusOr<CExpr> ScalarValue(const ir::Node& name) const;
  absl::StatusOr<CExpr> ScalarAddress(const ir::Node& name) const;

  // True when the control expression is known to be >= 0.
  bool NonNegative(const ir::Node& expr) const;

 private:
  // expr_emitter.cc
  absl::StatusOr<CExpr> ReadConfig(const ir::Node& expr) const;

  // access_expr.cc
  // The binding a name (a Ref) refers to, of kind `kind`.
  absl::StatusOr<Binding*> Find(const ir::Node& name, BindingKind kind) const;
  // `expr`, noting that it reads `binding`.
  static CExpr Reading(Binding* binding, CExpr expr);
  absl::StatusOr<CExpr> Element(const ir::Node& load, bool write) const;
  // The element `(A I...)` of `A`'s view as an index into `view.base`.
  struct LinearElement {
    const View* view;
    CExpr index;
  };
  absl::StatusOr<LinearElement> Linear(const ir::Node& load) const;

  // control_expr.cc
  absl::StatusOr<CExpr> ControlOperation(const ir::Node& expr) const;
  absl::StatusOr<CExpr> Compare(const ir::Node& expr) const;
  absl::StatusOr<CExpr> FloorOp(const ir::Node& expr) const;
  absl::StatusOr<CExpr> Stride(const ir::Node& expr) const;

  // data_expr.cc
  absl::StatusOr<CExpr> DataOperation(const ir::Node& expr,
                                      ElemType type) const;
  absl::StatusOr<CExpr> CastValue(const ir::Node& expr, ElemType to) const;
  // a * b + c rounded once (the loop level's fma of scalars).
  static absl::StatusOr<CExpr> FusedMultiplyAdd(
      const ir::Node& expr, const std::vector<CExpr>& operands, ElemType type);

  const GlobalNames& globals_;
  const Scope& scope_;
  VectorEmitter* vectors_ = nullptr;
};

// A call of `helper`, which the output then defines.
CExpr CallHelper(const Helper& helper, const std::vector<CExpr>& operands);

// The error for `node` where emit-c expects `what` ("a data value").
absl::Status Unexpected(const ir::Node& node, absl::string_view what);

// The C type of a control value: int64_t, or bool.
absl::string_view ControlCType(ControlType type);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_EXPR_EMITTER_H_
