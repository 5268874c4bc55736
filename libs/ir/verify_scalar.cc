#include "libs/ir/verify_scalar.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/verify_common.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

// Types two operands that must share one type (arithmetic, comparisons, the
// branches of a select). A literal operand takes the other one's type.
absl::StatusOr<ScalarType> InferSameType(const Sexpr& a, const Sexpr& b,
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

absl::StatusOr<ScalarType> Conform(const Sexpr& at, ScalarType found,
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

bool IsScalarOperation(absl::string_view head) {
  return head == "+" || head == "-" || head == "*" || head == "/" ||
         head == "neg" || head == "max" || head == "min" || head == "select" ||
         head == "cast";
}

bool IsComparison(absl::string_view head) {
  return head == "<" || head == "<=" || head == ">" || head == ">=" ||
         head == "==" || head == "!=";
}

absl::StatusOr<ScalarType> InferScalarOperation(
    const Sexpr& expr, std::optional<ElemType> expected, OperandTyper operand,
    ConditionChecker condition) {
  absl::string_view head = expr.head();
  if (head == "neg") {
    if (auto status = ExpectOperands(expr, 1); !status.ok()) return status;
    return operand(expr[1], expected);
  }
  if (head == "select") {
    if (auto status = ExpectOperands(expr, 3); !status.ok()) return status;
    if (auto status = condition(expr[1]); !status.ok()) return status;
    return InferSameType(expr[2], expr[3], expected, operand);
  }
  if (head == "cast") {
    if (auto status = ExpectOperands(expr, 2); !status.ok()) return status;
    std::optional<ElemType> target;
    if (expr[1].is_symbol()) target = ParseElemType(expr[1].text());
    if (!target) {
      return ErrorAt(expr[1].loc(),
                     absl::StrCat("expected an element type to cast to, "
                                  "found '",
                                  PrintFlat(expr[1]), "'"));
    }
    if (auto type = operand(expr[2], std::nullopt); !type.ok()) {
      return type.status();
    }
    return Conform(expr, ScalarType::Of(*target), expected);
  }
  // + - * / max min
  if (auto status = ExpectOperands(expr, 2); !status.ok()) return status;
  return InferSameType(expr[1], expr[2], expected, operand);
}

absl::Status CheckDataComparison(const Sexpr& comparison,
                                 OperandTyper operand) {
  if (auto status = ExpectOperands(comparison, 2); !status.ok()) return status;
  return InferSameType(comparison[1], comparison[2], std::nullopt, operand)
      .status();
}

}  // namespace tessel
