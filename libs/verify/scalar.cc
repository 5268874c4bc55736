#include "libs/verify/scalar.h"

#include "absl/strings/str_cat.h"
#include "libs/verify/common.h"

namespace tessel::ir {
namespace {

// Types two operands that must share one type (arithmetic, comparisons, the
// branches of a select). A literal operand takes the other one's type; two
// literal operands are typed again once the context fixes their type.
absl::StatusOr<ScalarType> InferSameType(Node& a, Node& b,
                                         std::optional<ElemType> expected,
                                         OperandTyper operand) {
  if (expected) {
    if (auto type = operand(a, expected); !type.ok()) return type.status();
    if (auto type = operand(b, expected); !type.ok()) return type.status();
    return ScalarType::Of(*expected);
  }
  auto first = operand(a, std::nullopt);
  if (!first.ok()) return first;
  if (first->is_elem()) {
    if (auto type = operand(b, first->elem); !type.ok()) return type.status();
    return first;
  }
  auto second = operand(b, std::nullopt);
  if (!second.ok()) return second;
  if (second->is_elem()) {
    // `a` is made of literals: check that they fit `b`'s type.
    if (auto type = operand(a, second->elem); !type.ok()) {
      return type.status();
    }
    return second;
  }
  return first->kind == ScalarType::Kind::kFloatLiteral ? *first : *second;
}

}  // namespace

ElemType DefaultLiteralType(ScalarType type) {
  if (type.is_elem()) return type.elem;
  return type.kind == ScalarType::Kind::kFloatLiteral ? ElemType::kF64
                                                      : ElemType::kI32;
}

std::string Describe(ScalarType type) {
  switch (type.kind) {
    case ScalarType::Kind::kElem:
      return std::string(ElemTypeName(type.elem));
    case ScalarType::Kind::kIntLiteral:
      return "an integer literal";
    case ScalarType::Kind::kFloatLiteral:
      return "a float literal";
  }
  return "?";
}

absl::StatusOr<ScalarType> Conform(const Node& at, ScalarType found,
                                   std::optional<ElemType> expected) {
  if (!expected) return found;
  switch (found.kind) {
    case ScalarType::Kind::kElem:
      if (found.elem == *expected) return found;
      return ErrorAt(at.loc(),
                     absl::StrCat("expected ", ElemTypeName(*expected),
                                  ", found ", Describe(found)));
    case ScalarType::Kind::kIntLiteral:
      return ScalarType::Of(*expected);
    case ScalarType::Kind::kFloatLiteral:
      if (IsFloat(*expected)) return ScalarType::Of(*expected);
      return ErrorAt(at.loc(), absl::StrCat("a float literal cannot be an ",
                                            ElemTypeName(*expected)));
  }
  return found;
}

absl::Status CheckLiteralFits(const Node& literal, ElemType elem) {
  if (!IsFloat(elem)) return absl::OkStatus();
  // An integer beyond 2^53 is rounded on its way to double, but only f32
  // and f64 reach so far, and they hold every int64_t.
  const double value = literal.is_float_literal()
                           ? literal.float_value()
                           : static_cast<double>(literal.int_value());
  if (FloatLiteralFits(elem, value)) return absl::OkStatus();
  return ErrorAt(
      literal.loc(),
      absl::StrCat("the literal ", Text(literal), " does not fit in ",
                   ElemTypeName(elem), ": it rounds to infinity"));
}

bool IsScalarOperation(Op op) {
  switch (op) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kDiv:
    case Op::kNeg:
    case Op::kMax:
    case Op::kMin:
    case Op::kSelect:
    case Op::kCast:
      return true;
    default:
      return false;
  }
}

bool IsVectorOp(Op op) {
  switch (op) {
    case Op::kTransferRead:
    case Op::kBroadcast:
    case Op::kFma:
    case Op::kContract:
    case Op::kExtract:
    case Op::kInsert:
    case Op::kReduction:
    case Op::kShapeCast:
    case Op::kOuterProduct:
    case Op::kExtractStridedSlice:
    case Op::kInsertStridedSlice:
    case Op::kMultiReduction:
      return true;
    default:
      return false;
  }
}

absl::StatusOr<ScalarType> InferScalarOperation(
    Node& expr, std::optional<ElemType> expected, OperandTyper operand,
    ConditionChecker condition) {
  switch (expr.op()) {
    case Op::kNeg:
      return operand(*expr.operand(0), expected);
    case Op::kSelect:
      if (auto status = condition(*expr.operand(0)); !status.ok()) {
        return status;
      }
      return InferSameType(*expr.operand(1), *expr.operand(2), expected,
                           operand);
    case Op::kCast: {
      // The operand keeps its own type; one made of literals has none and
      // takes the default.
      auto type = operand(*expr.operand(0), std::nullopt);
      if (!type.ok()) return type.status();
      if (!type->is_elem()) {
        auto typed = operand(*expr.operand(0), DefaultLiteralType(*type));
        if (!typed.ok()) return typed.status();
      }
      return Conform(expr, ScalarType::Of(expr.declared_type().elem()),
                     expected);
    }
    case Op::kFma: {
      // The product's operands and the addend share one type; literals
      // take it from whichever operand has one.
      auto product =
          InferSameType(*expr.operand(0), *expr.operand(1), expected, operand);
      if (!product.ok()) return product;
      if (product->is_elem()) {
        auto addend = operand(*expr.operand(2), product->elem);
        if (!addend.ok()) return addend;
        return product;
      }
      auto addend = operand(*expr.operand(2), std::nullopt);
      if (!addend.ok() || !addend->is_elem()) return addend;
      return InferSameType(*expr.operand(0), *expr.operand(1), addend->elem,
                           operand);
    }
    default:  // + - * / max min
      return InferSameType(*expr.operand(0), *expr.operand(1), expected,
                           operand);
  }
}

absl::Status CheckDataComparison(Node& comparison, OperandTyper operand) {
  auto type = InferSameType(*comparison.operand(0), *comparison.operand(1),
                            std::nullopt, operand);
  if (!type.ok() || type->is_elem()) return type.status();
  return InferSameType(*comparison.operand(0), *comparison.operand(1),
                       DefaultLiteralType(*type), operand)
      .status();
}

}  // namespace tessel::ir
