// Types of scalar data expressions, shared by the loop level and the tensor
// level (formats/tir/README.md, "Types of data expressions"): both operands
// of an arithmetic operation have one element type, conversions are explicit
// casts, and a literal takes the type its context needs (an integer literal
// may stand for a float, a float literal never for an integer).
#ifndef TESSEL_LIBS_IR_VERIFY_SCALAR_H_
#define TESSEL_LIBS_IR_VERIFY_SCALAR_H_

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/types.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

// The type of a scalar while it is inferred: an element type, or the type of
// an expression made only of literals, which its context will fix.
struct ScalarType {
  enum class Kind { kElem, kIntLiteral, kFloatLiteral };
  Kind kind = Kind::kElem;
  ElemType elem = ElemType::kF32;  // for kElem

  static ScalarType Of(ElemType elem) { return {Kind::kElem, elem}; }
  static ScalarType IntLiteral() { return {Kind::kIntLiteral}; }
  static ScalarType FloatLiteral() { return {Kind::kFloatLiteral}; }
  bool is_elem() const { return kind == Kind::kElem; }

  friend bool operator==(const ScalarType& a, const ScalarType& b) {
    return a.kind == b.kind && (!a.is_elem() || a.elem == b.elem);
  }
};

// "f32", "an integer literal", "a float literal".
std::string Describe(ScalarType type);

// The type an expression of type `found` takes where `expected` is needed:
// `expected` itself, or an error at `at` ("expected f32, found i8", "a float
// literal cannot be an i32"). Without an expectation, `found`.
absl::StatusOr<ScalarType> Conform(const Sexpr& at, ScalarType found,
                                   std::optional<ElemType> expected);

// Types an operand. When `expected` is set the operand must conform to it
// (typically by ending in Conform).
using OperandTyper = absl::FunctionRef<absl::StatusOr<ScalarType>(
    const Sexpr& operand, std::optional<ElemType> expected)>;
// Checks the condition of a `select`.
using ConditionChecker = absl::FunctionRef<absl::Status(const Sexpr& cond)>;

// Is `head` one of the scalar operations typed here: + - * / neg max min
// select cast?
bool IsScalarOperation(absl::string_view head);
// Is `head` a comparison: < <= > >= == !=?
bool IsComparison(absl::string_view head);

// Types the scalar operation `expr` (IsScalarOperation(expr.head())).
absl::StatusOr<ScalarType> InferScalarOperation(
    const Sexpr& expr, std::optional<ElemType> expected, OperandTyper operand,
    ConditionChecker condition);

// Checks a comparison of two data values: both operands have one type.
absl::Status CheckDataComparison(const Sexpr& comparison, OperandTyper operand);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_SCALAR_H_
