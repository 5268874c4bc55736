#include "libs/kernel/typing.h"

#include <cmath>
#include <variant>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::kernel {

ElemType Promote(ElemType type) {
  return type == ElemType::kI8 ? ElemType::kI32 : type;
}

ElemType CommonType(ElemType a, ElemType b) {
  // The wider float, or i32 (after promotion) without one.
  if (IsFloat(a) && IsFloat(b)) {
    return ElemInfo(a).bits >= ElemInfo(b).bits ? a : b;
  }
  if (IsFloat(a) || IsFloat(b)) return IsFloat(a) ? a : b;
  return ElemType::kI32;
}

namespace {

// A literal, or an expression of literals folded to one, whose type is not
// yet known: it takes the type of what it meets.
struct Constant {
  bool is_float = false;
  int64_t int_value = 0;
  double float_value = 0;
  Location loc;

  double AsDouble() const {
    return is_float ? float_value : static_cast<double>(int_value);
  }
};

using Typed = std::variant<Value, Constant>;

std::string ConstantText(const Constant& c) {
  return c.is_float ? AtomText(Sexpr::Float(c.float_value))
                    : absl::StrCat(c.int_value);
}

absl::Status DoesNotFit(const Constant& c, ElemType type) {
  return ErrorAt(c.loc, absl::StrCat("the number ", ConstantText(c),
                                     " does not fit in ", ElemTypeName(type)));
}

// The literal `c` as a value of `type`; a float becomes an integer (only
// when it stands alone as the value of an integer target) as C converts it,
// truncating towards zero.
absl::StatusOr<Value> LiteralOf(const Constant& c, ElemType type) {
  Value value;
  value.op = ValueOp::kLiteral;
  value.type = type;
  value.loc = c.loc;
  if (IsFloat(type)) {
    value.float_value = c.AsDouble();
    // A decimal literal fits when it rounds to a finite value: NumPy writes
    // FLT_MAX as 3.4028235e38, just above it but rounding down to it.
    if (!FloatLiteralFits(type, value.float_value)) return DoesNotFit(c, type);
    return value;
  }
  double whole =
      c.is_float ? std::trunc(c.float_value) : static_cast<double>(c.int_value);
  if (!(whole >= static_cast<double>(IntMin(type)) &&
        whole <= static_cast<double>(IntMax(type)))) {
    return DoesNotFit(c, type);
  }
  value.int_value = c.is_float ? static_cast<int64_t>(whole) : c.int_value;
  return value;
}

Value CastTo(Value value, ElemType type) {
  if (value.type == type) return value;
  Value cast;
  cast.op = ValueOp::kCast;
  cast.type = type;
  cast.loc = value.loc;
  cast.operands.push_back(std::move(value));
  return cast;
}

ValueOp BinaryValueOp(ast::BinaryOp op) {
  switch (op) {
    case ast::BinaryOp::kAdd:
      return ValueOp::kAdd;
    case ast::BinaryOp::kSub:
      return ValueOp::kSub;
    case ast::BinaryOp::kMul:
      return ValueOp::kMul;
    case ast::BinaryOp::kDiv:
      return ValueOp::kDiv;
  }
  return ValueOp::kAdd;
}

absl::StatusOr<Constant> FoldBinary(ValueOp op, const Constant& a,
                                    const Constant& b, const Location& loc) {
  Constant result;
  result.loc = loc;
  if (!a.is_float && !b.is_float) {
    int64_t x = a.int_value;
    int64_t y = b.int_value;
    bool overflow = false;
    switch (op) {
      case ValueOp::kAdd:
        overflow = __builtin_add_overflow(x, y, &result.int_value);
        break;
      case ValueOp::kSub:
        overflow = __builtin_sub_overflow(x, y, &result.int_value);
        break;
      case ValueOp::kMul:
        overflow = __builtin_mul_overflow(x, y, &result.int_value);
        break;
      case ValueOp::kDiv:
        // Literals divide as numbers do (1 / 2 is 0.5), like Python's.
        if (y == 0) return ErrorAt(loc, "division by zero");
        result.is_float = true;
        result.float_value = static_cast<double>(x) / static_cast<double>(y);
        break;
      case ValueOp::kMax:
        result.int_value = std::max(x, y);
        break;
      default:
        result.int_value = std::min(x, y);
        break;
    }
    if (overflow) {
      return ErrorAt(loc, "integer overflow in a constant expression");
    }
    return result;
  }
  double x = a.AsDouble();
  double y = b.AsDouble();
  result.is_float = true;
  switch (op) {
    case ValueOp::kAdd:
      result.float_value = x + y;
      break;
    case ValueOp::kSub:
      result.float_value = x - y;
      break;
    case ValueOp::kMul:
      result.float_value = x * y;
      break;
    case ValueOp::kDiv:
      if (y == 0) return ErrorAt(loc, "division by zero");
      result.float_value = x / y;
      break;
    case ValueOp::kMax:
      result.float_value = std::max(x, y);
      break;
    default:
      result.float_value = std::min(x, y);
      break;
  }
  return result;
}

// `a op b` for an arithmetic operation, max or min.
absl::StatusOr<Typed> Binary(ValueOp op, Typed a, Typed b,
                             const Location& loc) {
  const Constant* ca = std::get_if<Constant>(&a);
  const Constant* cb = std::get_if<Constant>(&b);
  if (ca != nullptr && cb != nullptr) {
    auto folded = FoldBinary(op, *ca, *cb, loc);
    if (!folded.ok()) return folded.status();
    return Typed(*folded);
  }
  Value result;
  result.op = op;
  result.loc = loc;
  if (ca == nullptr && cb == nullptr) {
    Value& va = std::get<Value>(a);
    Value& vb = std::get<Value>(b);
    result.type = CommonType(va.type, vb.type);
    result.operands.push_back(CastTo(std::move(va), result.type));
    result.operands.push_back(CastTo(std::move(vb), result.type));
    return Typed(std::move(result));
  }
  // One literal side: it takes the (promoted) type of the other, except
  // that a float literal meeting an integer makes the operation f64, as both
  // C (where the literal is a double) and NumPy compute it.
  const Constant& literal = ca != nullptr ? *ca : *cb;
  Value& typed = std::get<Value>(ca != nullptr ? b : a);
  result.type = literal.is_float && !IsFloat(typed.type) ? ElemType::kF64
                                                         : Promote(typed.type);
  auto literal_value = LiteralOf(literal, result.type);
  if (!literal_value.ok()) return literal_value.status();
  Value converted = CastTo(std::move(typed), result.type);
  if (ca != nullptr) {
    result.operands.push_back(*std::move(literal_value));
    result.operands.push_back(std::move(converted));
  } else {
    result.operands.push_back(std::move(converted));
    result.operands.push_back(*std::move(literal_value));
  }
  return Typed(std::move(result));
}

absl::StatusOr<Typed> Negate(Typed a, const Location& loc) {
  if (Constant* c = std::get_if<Constant>(&a)) {
    if (c->is_float) {
      c->float_value = -c->float_value;
    } else if (__builtin_sub_overflow(int64_t{0}, c->int_value,
                                      &c->int_value)) {
      return ErrorAt(loc, "integer overflow in a constant expression");
    }
    c->loc = loc;
    return a;
  }
  Value& operand = std::get<Value>(a);
  Value result;
  result.op = ValueOp::kNeg;
  result.type = Promote(operand.type);
  result.loc = loc;
  result.operands.push_back(CastTo(std::move(operand), result.type));
  return Typed(std::move(result));
}

class Typer {
 public:
  explicit Typer(const ReadResolver& resolve) : resolve_(resolve) {}

  absl::StatusOr<Typed> Build(const ast::Expr& expr) {
    switch (expr.kind) {
      case ast::ExprKind::kNumber:
        return Typed(Constant{expr.is_float, expr.int_value, expr.float_value,
                              expr.loc});
      case ast::ExprKind::kName:
      case ast::ExprKind::kElement: {
        auto read = resolve_(expr);
        if (!read.ok()) return read.status();
        Value value;
        value.op = ValueOp::kRead;
        value.type = read->type;
        value.loc = expr.loc;
        value.read = read->read;
        return Typed(std::move(value));
      }
      case ast::ExprKind::kNeg: {
        auto operand = Build(expr.operands[0]);
        if (!operand.ok()) return operand.status();
        return Negate(*std::move(operand), expr.loc);
      }
      case ast::ExprKind::kBinary: {
        auto lhs = Build(expr.operands[0]);
        if (!lhs.ok()) return lhs.status();
        auto rhs = Build(expr.operands[1]);
        if (!rhs.ok()) return rhs.status();
        return Binary(BinaryValueOp(expr.op), *std::move(lhs), *std::move(rhs),
                      expr.loc);
      }
      case ast::ExprKind::kCall:
        return Call(expr);
    }
    return ErrorAt(expr.loc, "unsupported expression");
  }

 private:
  // max(a, b), min(a, b) and relu(a) = max(a, 0).
  absl::StatusOr<Typed> Call(const ast::Expr& expr) {
    size_t arity;
    ValueOp op;
    if (expr.name == "max" || expr.name == "min") {
      arity = 2;
      op = expr.name == "max" ? ValueOp::kMax : ValueOp::kMin;
    } else if (expr.name == "relu") {
      arity = 1;
      op = ValueOp::kMax;
    } else {
      return ErrorAt(expr.loc, absl::StrCat("unknown function '", expr.name,
                                            "'; the functions are max(a, b), "
                                            "min(a, b) and relu(a)"));
    }
    if (expr.operands.size() != arity) {
      return ErrorAt(expr.loc,
                     absl::StrCat("'", expr.name, "' takes ", arity,
                                  arity == 1 ? " argument" : " arguments",
                                  ", not ", expr.operands.size()));
    }
    auto lhs = Build(expr.operands[0]);
    if (!lhs.ok()) return lhs.status();
    Typed rhs = Constant{false, 0, 0, expr.loc};
    if (arity == 2) {
      auto second = Build(expr.operands[1]);
      if (!second.ok()) return second.status();
      rhs = *std::move(second);
    }
    return Binary(op, *std::move(lhs), std::move(rhs), expr.loc);
  }

  const ReadResolver& resolve_;
};

}  // namespace

absl::StatusOr<Value> TypeValue(const ast::Expr& expr, ElemType target,
                                const ReadResolver& resolve) {
  auto typed = Typer(resolve).Build(expr);
  if (!typed.ok()) return typed.status();
  if (Constant* c = std::get_if<Constant>(&*typed))
    return LiteralOf(*c, target);
  return CastTo(std::get<Value>(*std::move(typed)), target);
}

}  // namespace tessel::kernel
