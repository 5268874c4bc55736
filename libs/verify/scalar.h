// Types of scalar data expressions, shared by the loop level and the tensor
// level (formats/tir/README.md, "Types of data expressions"): both operands
// of an arithmetic operation have one element type, conversions are explicit
// casts, and a literal takes the type its context needs (an integer literal
// may stand for a float, a float literal never for an integer).
//
// While an expression is typed, a subexpression made only of literals has a
// literal type; its nodes get their element type once the context fixes it
// (an OperandTyper called again with `expected` set). Elaboration ends with
// every node typed.
#ifndef TESSEL_LIBS_VERIFY_SCALAR_H_
#define TESSEL_LIBS_VERIFY_SCALAR_H_

#include <optional>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::ir {

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

// The type an expression made only of literals has where no context gives
// it one (the operand of a cast, a comparison of literals): f64 when it has
// a float literal, else i32, as C types constants.
ElemType DefaultLiteralType(ScalarType type);

// "f32", "an integer literal", "a float literal".
std::string Describe(ScalarType type);

// The type an expression of type `found` takes where `expected` is needed:
// `expected` itself, or an error at `at` ("expected f32, found i8", "a float
// literal cannot be an i32"). Without an expectation, `found`.
absl::StatusOr<ScalarType> Conform(const Node& at, ScalarType found,
                                   std::optional<ElemType> expected);

// Checks that the literal `literal`, given the element type `elem`, fits it:
// integer types wrap an integer literal, but a float type cannot hold a
// finite literal that rounds to infinity ("the literal 1e+39 does not fit
// in f32").
absl::Status CheckLiteralFits(const Node& literal, ElemType elem);

// Types an operand and gives its nodes their types. When `expected` is set
// the operand must conform to it (typically by ending in Conform).
using OperandTyper = absl::FunctionRef<absl::StatusOr<ScalarType>(
    Node& operand, std::optional<ElemType> expected)>;
// Checks the condition of a `select`.
using ConditionChecker = absl::FunctionRef<absl::Status(Node& cond)>;

// Is `op` one of the scalar operations typed here: + - * / neg max min
// select cast?
bool IsScalarOperation(Op op);
// Is `op` one of the vector level's own ops (transfer-read, broadcast, fma,
// contract, extract, insert, reduction)? (transfer-write is a statement.)
bool IsVectorOp(Op op);

// Types the scalar operation `expr` (IsScalarOperation(expr.op()), or an
// fma of scalars at the loop level) and its operands. The caller gives
// `expr` itself its type.
absl::StatusOr<ScalarType> InferScalarOperation(
    Node& expr, std::optional<ElemType> expected, OperandTyper operand,
    ConditionChecker condition);

// Checks a comparison of two data values: both operands have one type.
absl::Status CheckDataComparison(Node& comparison, OperandTyper operand);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_SCALAR_H_
