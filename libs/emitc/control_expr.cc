// Control expressions: int64_t arithmetic with literals folded, floor
// division and modulo, conditions, strides and control configuration
// fields.
#include <cstdint>
#include <limits>

#include "libs/emitc/expr_emitter.h"

namespace tessel::emitc {
namespace {

bool IsPositiveLiteral(const ir::Node& node) {
  return node.is(ir::Op::kConst) && !node.is_float_literal() &&
         node.int_value() > 0;
}

// `a op b` of int64_t literals, unless it overflows.
std::optional<int64_t> Fold(ir::Op op, int64_t a, int64_t b) {
  int64_t folded;
  bool overflow = op == ir::Op::kAdd   ? __builtin_add_overflow(a, b, &folded)
                  : op == ir::Op::kSub ? __builtin_sub_overflow(a, b, &folded)
                                       : __builtin_mul_overflow(a, b, &folded);
  if (overflow) return std::nullopt;
  return folded;
}

}  // namespace

absl::StatusOr<CExpr> ExprEmitter::Control(const ir::Node& expr) const {
  switch (expr.op()) {
    case ir::Op::kConst:
      if (expr.is_float_literal()) break;
      return IntLiteral(expr.int_value());
    case ir::Op::kRef: {
      auto binding = Find(expr, BindingKind::kControl);
      if (!binding.ok()) return binding.status();
      return Reading(*binding, Primary((*binding)->c_name));
    }
    case ir::Op::kDiv:
    case ir::Op::kFloorMod:
      return FloorOp(expr);
    case ir::Op::kLt:
    case ir::Op::kLe:
    case ir::Op::kGt:
    case ir::Op::kGe:
    case ir::Op::kEq:
    case ir::Op::kNe:
      return Compare(expr);
    case ir::Op::kStride:
      return Stride(expr);
    case ir::Op::kReadConfig:
      return ReadConfig(expr);
    default:
      return ControlOperation(expr);
  }
  return Unexpected(expr, "a control value");
}

absl::StatusOr<CExpr> ExprEmitter::ControlOperation(
    const ir::Node& expr) const {
  std::vector<CExpr> operands;
  for (const ir::Node* operand : expr.operands()) {
    auto value = Control(*operand);
    if (!value.ok()) return value.status();
    operands.push_back(*std::move(value));
  }
  switch (expr.op()) {
    case ir::Op::kNeg:
      if (operands[0].constant &&
          *operands[0].constant != std::numeric_limits<int64_t>::min()) {
        return IntLiteral(-*operands[0].constant);
      }
      return Unary("-", operands[0]);
    case ir::Op::kNot:
      return Unary("!", operands[0]);
    // A function, not `a < b ? b : a`: operands written twice make nested
    // max and min exponential in size.
    case ir::Op::kMin:
      return CallHelper(Helper::OnControl(HelperOp::kMin), operands);
    case ir::Op::kMax:
      return CallHelper(Helper::OnControl(HelperOp::kMax), operands);
    case ir::Op::kAnd:
      return Binary("&&", operands[0], operands[1]);
    case ir::Op::kOr:
      return Binary("||", operands[0], operands[1]);
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul: {
      // Literal arithmetic is folded: in C it would be computed in int.
      const CExpr& a = operands[0];
      const CExpr& b = operands[1];
      if (a.constant && b.constant) {
        if (auto folded = Fold(expr.op(), *a.constant, *b.constant)) {
          return IntLiteral(*folded);
        }
      }
      return Binary(ir::Spelling(expr.op()), a, b);
    }
    default:
      return Unexpected(expr, "a control value");
  }
}

absl::StatusOr<CExpr> ExprEmitter::Compare(const ir::Node& expr) const {
  // Data values are compared in `select` conditions; elaboration gives
  // both operands the same element type then.
  bool data =
      expr.operand(0)->type().is_elem() || expr.operand(1)->type().is_elem();
  std::vector<CExpr> operands;
  for (const ir::Node* operand : expr.operands()) {
    auto value = data ? Data(*operand) : Control(*operand);
    if (!value.ok()) return value.status();
    operands.push_back(*std::move(value));
  }
  return Binary(ir::Spelling(expr.op()), operands[0], operands[1]);
}

absl::StatusOr<CExpr> ExprEmitter::FloorOp(const ir::Node& expr) const {
  const ir::Node& numerator = *expr.operand(0);
  const ir::Node& divisor = *expr.operand(1);
  if (!IsPositiveLiteral(divisor)) {
    return Unexpected(divisor, "a positive integer literal");
  }
  auto a = Control(numerator);
  if (!a.ok()) return a.status();
  CExpr n = IntLiteral(divisor.int_value());
  bool divide = expr.is(ir::Op::kDiv);
  // C's `/` and `%` truncate; they agree with floor division and modulo
  // when the numerator is non-negative.
  if (NonNegative(numerator)) return Binary(divide ? "/" : "%", *a, n);
  return CallHelper(
      Helper::OnControl(divide ? HelperOp::kFloorDiv : HelperOp::kFloorMod),
      {*a, n});
}

absl::StatusOr<CExpr> ExprEmitter::Stride(const ir::Node& expr) const {
  auto binding = Find(*expr.operand(0), BindingKind::kBuffer);
  if (!binding.ok()) return binding.status();
  const View& view = (*binding)->view;
  const ir::Node& k = *expr.operand(1);
  if (!k.is(ir::Op::kConst) || k.int_value() < 0 ||
      k.int_value() >= view.rank()) {
    return Unexpected(k, "a dimension of the tensor or window");
  }
  return view.strides[view.kept[k.int_value()]];
}

bool ExprEmitter::NonNegative(const ir::Node& expr) const {
  switch (expr.op()) {
    case ir::Op::kConst:
      return !expr.is_float_literal() && expr.int_value() >= 0;
    case ir::Op::kRef: {
      const Binding* binding =
          expr.def() != nullptr ? scope_.Lookup(*expr.def()) : nullptr;
      return binding != nullptr && binding->kind == BindingKind::kControl &&
             binding->non_negative;
    }
    case ir::Op::kAdd:
    case ir::Op::kMul:
    case ir::Op::kMin:
      return NonNegative(*expr.operand(0)) && NonNegative(*expr.operand(1));
    case ir::Op::kMax:
      return NonNegative(*expr.operand(0)) || NonNegative(*expr.operand(1));
    case ir::Op::kDiv:
      return IsPositiveLiteral(*expr.operand(1)) &&
             NonNegative(*expr.operand(0));
    case ir::Op::kFloorMod:
      // Floor modulo by a positive number is never negative.
      return IsPositiveLiteral(*expr.operand(1));
    default:
      return false;
  }
}

}  // namespace tessel::emitc
