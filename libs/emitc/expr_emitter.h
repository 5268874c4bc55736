// Translates TIR control and data expressions, element accesses and window
// expressions (formats/tir/README.md, "Expressions") to C expressions that
// compute exactly what the TIR semantics say:
// - control values are int64_t (bool for conditions); `/` and `%` are floor
//   division and modulo, written as plain C `/` and `%` when the numerator
//   is known to be non-negative and with tsl_floordiv/tsl_floormod
//   otherwise;
// - data arithmetic on i8 is wrapped in `(int8_t)(...)` after every
//   operation, literals take the type their context needs (`0.5f`, `2.0`),
//   `max`/`min` are `a < b ? b : a` and `b < a ? b : a`;
// - tensors are row-major: (C i j) of a (f32 64 16) is `C[i * 16 + j]`;
//   windows address through their base and strides.
#ifndef TESSEL_LIBS_EMITC_EXPR_EMITTER_H_
#define TESSEL_LIBS_EMITC_EXPR_EMITTER_H_

#include <optional>

#include "absl/status/statusor.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/scope.h"
#include "libs/ir/module.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::emitc {

class ExprEmitter {
 public:
  ExprEmitter(const Module& module, const GlobalNames& globals,
              const Scope& scope)
      : module_(module), globals_(globals), scope_(scope) {}

  // A control expression: an int64_t or, for comparisons and logic, a
  // bool. Comparisons may compare data values (in `select` conditions).
  absl::StatusOr<CExpr> Control(const Sexpr& expr) const;
  // A data expression of element type `type`.
  absl::StatusOr<CExpr> Data(const Sexpr& expr, ElemType type) const;

  // The location `(assign TARGET ...)` or `(reduce TARGET ...)` stores to:
  // a scalar name or an element `(NAME I...)`.
  struct Target {
    CExpr lvalue;
    ElemType elem;
  };
  absl::StatusOr<Target> AssignTarget(const Sexpr& target) const;

  // A tensor or window argument: a name or `(window NAME SEL...)`.
  absl::StatusOr<View> WindowOf(const Sexpr& expr) const;
  // A pointer to the first element of `view` (`A`, `&A[i * 16]`).
  static CExpr FirstElement(const View& view);
  // The window struct of `view`: the struct parameter itself when `view` is
  // a whole window parameter of `type`, a compound literal otherwise.
  static CExpr WindowValue(const View& view, const WindowType& type);

  // A scalar data name's value (`*alpha`, `x`) and address (`alpha`, `&x`).
  absl::StatusOr<CExpr> ScalarValue(const Sexpr& name) const;
  absl::StatusOr<CExpr> ScalarAddress(const Sexpr& name) const;

  // The element type of a data expression, or nullopt for control
  // expressions and literals (whose type comes from their context).
  std::optional<ElemType> DataTypeOf(const Sexpr& expr) const;
  // Is `expr` data rather than control? A float literal, a data name or
  // element, a cast or select, or arithmetic on one of them is; integer
  // literals alone are not.
  bool IsData(const Sexpr& expr) const;
  // True when the control expression is known to be >= 0.
  bool NonNegative(const Sexpr& expr) const;

 private:
  absl::StatusOr<Binding*> Find(const Sexpr& name) const;
  absl::StatusOr<Binding*> FindData(const Sexpr& name, BindingKind kind) const;
  absl::Status CheckAddressable(const Binding& root, const Sexpr& at) const;
  absl::StatusOr<CExpr> Element(const Sexpr& access, bool write) const;
  absl::StatusOr<CExpr> Compare(const Sexpr& expr) const;
  absl::StatusOr<CExpr> FloorOp(const Sexpr& expr) const;
  absl::StatusOr<CExpr> Stride(const Sexpr& expr) const;
  absl::StatusOr<CExpr> ReadConfig(const Sexpr& expr,
                                   const ConfigField** field) const;
  absl::StatusOr<CExpr> DataOperation(const Sexpr& expr, ElemType type) const;

  const Module& module_;
  const GlobalNames& globals_;
  const Scope& scope_;
};

// The type of a config field: a control type or an element type.
struct FieldType {
  std::optional<ControlType> control;
  ElemType elem = ElemType::kF32;
};
FieldType ConfigFieldType(const ConfigField& field);

// The C type of a control value: int64_t, or bool.
absl::string_view ControlCType(ControlType type);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_EXPR_EMITTER_H_
