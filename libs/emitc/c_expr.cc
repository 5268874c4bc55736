#include "libs/emitc/c_expr.h"

#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace tessel::emitc {
namespace {

Prec BinaryPrec(absl::string_view op) {
  if (op == "||") return Prec::kLogicalOr;
  if (op == "&&") return Prec::kLogicalAnd;
  if (op == "|") return Prec::kBitwiseOr;
  if (op == "&") return Prec::kBitwiseAnd;
  if (op == "==" || op == "!=") return Prec::kEquality;
  if (op == "<" || op == "<=" || op == ">" || op == ">=") {
    return Prec::kRelational;
  }
  if (op == "+" || op == "-") return Prec::kAdditive;
  return Prec::kMultiplicative;
}

bool IsComparison(Prec prec) {
  return prec == Prec::kEquality || prec == Prec::kRelational;
}

// Parentheses C's grammar does not need but GCC's -Wparentheses (part of
// -Wall) asks for: `a < b == c`, `!a == b`, `a && b || c` and any binary
// operation inside `&` or `|`.
bool WantsParentheses(Prec op, const CExpr& operand) {
  if (op == Prec::kBitwiseOr || op == Prec::kBitwiseAnd) {
    return operand.prec > Prec::kConditional && operand.prec < Prec::kUnary;
  }
  if (IsComparison(op)) {
    return IsComparison(operand.prec) || operand.is_logical_not;
  }
  return op == Prec::kLogicalOr && operand.prec == Prec::kLogicalAnd;
}

std::string OperandText(Prec op, const CExpr& operand, Prec context) {
  if (WantsParentheses(op, operand))
    return absl::StrCat("(", operand.text, ")");
  return TextAt(operand, context);
}

Prec Tighter(Prec prec) {
  return static_cast<Prec>(static_cast<int>(prec) + 1);
}

// The shortest decimal that reads back as `value`, always recognisable as a
// floating constant by C (a '.' or an exponent).
template <typename T>
std::string ShortestDecimal(T value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// The shortest decimal that C reads as a float constant converting to the
// f16 value `value`.
std::string ShortestF16Decimal(double value) {
  char buffer[64];
  for (int digits = 1;; ++digits) {
    auto result = std::to_chars(buffer, buffer + sizeof(buffer), value,
                                std::chars_format::general, digits);
    float single = 0;
    std::from_chars(buffer, result.ptr, single);
    // Nine digits give the float holding `value` exactly.
    if (digits == 9 || RoundToFloat(ElemType::kF16, single) == value) {
      // Written as the shortest text of that decimal (`65500`, not
      // `6.55e+04`).
      double decimal = 0;
      std::from_chars(buffer, result.ptr, decimal);
      return ShortestDecimal(decimal);
    }
  }
}

CExpr Signed(std::string text) {
  CExpr expr;
  expr.prec = text[0] == '-' ? Prec::kUnary : Prec::kPostfix;
  expr.text = std::move(text);
  return expr;
}

// An integer expression as its terms without a literal and its literal
// term: `rest + literal` (rest null for a literal alone).
struct LiteralSplit {
  const CExpr* rest;
  int64_t literal;
};

LiteralSplit SplitLiteral(const CExpr& expr) {
  if (expr.shifted) return {expr.shifted.get(), expr.addend};
  if (expr.constant) return {nullptr, *expr.constant};
  return {&expr, 0};
}

// `left OP right`, with the right operand parenthesised when it binds
// looser than `right_context`.
CExpr Combine(absl::string_view op, const CExpr& left, const CExpr& right,
              Prec right_context) {
  Prec prec = BinaryPrec(op);
  CExpr expr;
  expr.prec = prec;
  expr.text = absl::StrCat(OperandText(prec, left, prec), " ", op, " ",
                           OperandText(prec, right, right_context));
  expr.uses = left.uses;
  expr.uses.Merge(right.uses);
  if (op == "*" && (left.constant || right.constant)) {
    expr.factor = left.constant ? *left.constant : *right.constant;
    expr.scaled = std::make_shared<const CExpr>(left.constant ? right : left);
  }
  // A sum's literal terms apart, for Add and Multiply: `a + 2 + b` is
  // `(a + b) + 2`, `a - 2` is `a + -2`, `2 + a` is `a + 2`.
  if (op == "+" || op == "-") {
    const bool minus = op == "-";
    const LiteralSplit a = SplitLiteral(left);
    const LiteralSplit b = SplitLiteral(right);
    int64_t addend;
    if ((a.rest != nullptr || (!minus && b.rest != nullptr)) &&
        (a.literal != 0 || b.literal != 0) &&
        (!minus || b.literal != std::numeric_limits<int64_t>::min()) &&
        !__builtin_add_overflow(a.literal, minus ? -b.literal : b.literal,
                                &addend)) {
      expr.addend = addend;
      expr.shifted = std::make_shared<const CExpr>(
          a.rest == nullptr   ? *b.rest
          : b.rest == nullptr ? *a.rest
                              : Combine(op, *a.rest, *b.rest, right_context));
    }
  }
  return expr;
}

}  // namespace

CExpr Primary(std::string text) {
  CExpr expr;
  expr.text = std::move(text);
  return expr;
}

CExpr IntLiteral(int64_t value) {
  CExpr expr;
  if (value == std::numeric_limits<int64_t>::min()) {
    // `-9223372036854775808` negates a literal too large for int64_t.
    expr = Primary("(-9223372036854775807 - 1)");
  } else {
    expr = Signed(absl::StrCat(value));
  }
  expr.constant = value;
  return expr;
}

CExpr FloatLiteral(double value, ElemType type) {
  const double rounded = RoundToFloat(type, value);
  switch (type) {
    case ElemType::kF16:
      // C has no f16 constants: a float constant converted. The constant
      // is the shortest that converts to the value, C converting the
      // decimal to float and the float to _Float16, each correctly rounded.
      if (std::isnan(rounded)) return Cast("_Float16", Primary("NAN"));
      if (std::isinf(rounded)) {
        return Cast("_Float16", Signed(rounded < 0 ? "-INFINITY" : "INFINITY"));
      }
      return Cast("_Float16", Signed(ShortestF16Decimal(rounded) + "f"));
    case ElemType::kF32:
    case ElemType::kF64:
      if (std::isnan(rounded)) return Primary("NAN");
      if (std::isinf(rounded)) {
        return Signed(rounded < 0 ? "-INFINITY" : "INFINITY");
      }
      if (type == ElemType::kF32) {
        return Signed(ShortestDecimal(static_cast<float>(rounded)) + "f");
      }
      return Signed(ShortestDecimal(rounded));
    case ElemType::kI8:
    case ElemType::kI32:
      break;  // no float literals: elaboration rejects them
  }
  return IntLiteral(static_cast<int64_t>(value));
}

CExpr Binary(absl::string_view op, const CExpr& left, const CExpr& right) {
  // Left-associative: the right operand must bind tighter, so that
  // (- a (- b c)) keeps its parentheses.
  return Combine(op, left, right, Tighter(BinaryPrec(op)));
}

CExpr Unary(absl::string_view op, const CExpr& operand) {
  std::string inner = TextAt(operand, Prec::kUnary);
  // `- -x` must not become `--x`.
  if (op == "-" && inner[0] == '-') {
    inner = absl::StrCat("(", inner, ")");
  }
  CExpr expr;
  expr.prec = Prec::kUnary;
  expr.text = absl::StrCat(op, inner);
  expr.is_logical_not = op == "!";
  expr.uses = operand.uses;
  return expr;
}

CExpr Cast(absl::string_view type, const CExpr& operand) {
  CExpr expr;
  expr.prec = Prec::kUnary;
  expr.text = absl::StrCat("(", type, ")", TextAt(operand, Prec::kUnary));
  expr.uses = operand.uses;
  return expr;
}

CExpr Conditional(const CExpr& condition, const CExpr& then_value,
                  const CExpr& else_value) {
  CExpr expr;
  expr.prec = Prec::kConditional;
  expr.text = absl::StrCat(TextAt(condition, Prec::kLogicalOr), " ? ",
                           TextAt(then_value, Prec::kLogicalOr), " : ",
                           TextAt(else_value, Prec::kConditional));
  expr.uses = condition.uses;
  expr.uses.Merge(then_value.uses);
  expr.uses.Merge(else_value.uses);
  return expr;
}

CExpr Subscript(const CExpr& base, const CExpr& index) {
  CExpr expr =
      Primary(absl::StrCat(TextAt(base, Prec::kPostfix), "[", index.text, "]"));
  expr.uses = base.uses;
  expr.uses.Merge(index.uses);
  return expr;
}

CExpr Member(const CExpr& base, absl::string_view member) {
  CExpr expr = Primary(absl::StrCat(TextAt(base, Prec::kPostfix), ".", member));
  expr.uses = base.uses;
  return expr;
}

CExpr MemberElement(const CExpr& base, absl::string_view member, int index) {
  CExpr expr = Primary(
      absl::StrCat(TextAt(base, Prec::kPostfix), ".", member, "[", index, "]"));
  expr.uses = base.uses;
  return expr;
}

CExpr Call(absl::string_view function, const std::vector<CExpr>& arguments) {
  CExpr expr = Primary(absl::StrCat(function, "("));
  for (size_t i = 0; i < arguments.size(); ++i) {
    absl::StrAppend(&expr.text, i == 0 ? "" : ", ", arguments[i].text);
    expr.uses.Merge(arguments[i].uses);
  }
  expr.text += ")";
  return expr;
}

CExpr WindowLiteral(const WindowType& type, const CExpr& data,
                    const std::vector<CExpr>& strides) {
  CExpr expr = Primary(
      absl::StrCat("(", WindowTypeName(type), "){ ", data.text, ", { "));
  expr.uses = data.uses;
  for (size_t i = 0; i < strides.size(); ++i) {
    absl::StrAppend(&expr.text, i == 0 ? "" : ", ", strides[i].text);
    expr.uses.Merge(strides[i].uses);
  }
  expr.text += " } }";
  expr.uses.needs.windows.insert(type);
  return expr;
}

CExpr Add(const CExpr& left, const CExpr& right) {
  if (left.constant && right.constant) {
    int64_t sum;
    if (!__builtin_add_overflow(*left.constant, *right.constant, &sum)) {
      return IntLiteral(sum);
    }
  }
  if (left.constant == 0) return right;
  if (right.constant == 0) return left;
  // The literal terms of both go last, summed into one.
  if (left.shifted || right.shifted || (left.constant && !right.constant)) {
    const LiteralSplit a = SplitLiteral(left);
    const LiteralSplit b = SplitLiteral(right);
    int64_t literal;
    if (!__builtin_add_overflow(a.literal, b.literal, &literal)) {
      return Add(a.rest == nullptr   ? *b.rest
                 : b.rest == nullptr ? *a.rest
                                     : Add(*a.rest, *b.rest),
                 IntLiteral(literal));
    }
  }
  if (right.constant && *right.constant < 0 &&
      *right.constant != std::numeric_limits<int64_t>::min()) {
    return Binary("-", left, IntLiteral(-*right.constant));
  }
  // Integer addition is associative: i * 16 + (2 * j + dj) needs no
  // parentheses.
  return Combine("+", left, right, Prec::kAdditive);
}

CExpr Subtract(const CExpr& left, const CExpr& right) {
  if (right.constant && *right.constant != std::numeric_limits<int64_t>::min()) {
    return Add(left, IntLiteral(-*right.constant));
  }
  return Binary("-", left, right);
}

CExpr Multiply(const CExpr& left, const CExpr& right) {
  if (left.constant && right.constant) {
    int64_t product;
    if (!__builtin_mul_overflow(*left.constant, *right.constant, &product)) {
      return IntLiteral(product);
    }
  }
  if (left.constant == 0 || right.constant == 0) return IntLiteral(0);
  if (left.constant == 1) return right;
  if (right.constant == 1) return left;
  // (x + c) * k is x * k + ck.
  const CExpr* sum = left.shifted ? &left : right.shifted ? &right : nullptr;
  const CExpr& scale = sum == &left ? right : left;
  int64_t addend;
  if (sum != nullptr && scale.constant &&
      !__builtin_mul_overflow(sum->addend, *scale.constant, &addend)) {
    return Add(Multiply(*sum->shifted, scale), IntLiteral(addend));
  }
  // Fold the literal factors of (c * x) * k and k * (c * x) into x * ck.
  const CExpr* product = left.scaled ? &left : right.scaled ? &right : nullptr;
  const CExpr& other = product == &left ? right : left;
  int64_t factor;
  if (product != nullptr && other.constant &&
      !__builtin_mul_overflow(product->factor, *other.constant, &factor)) {
    return Multiply(*product->scaled, IntLiteral(factor));
  }
  return Binary("*", left, right);
}

std::string TextAt(const CExpr& expr, Prec context) {
  if (expr.prec < context) return absl::StrCat("(", expr.text, ")");
  return expr.text;
}

}  // namespace tessel::emitc
