// Data expressions: literals written in their type, arithmetic that wraps
// as TIR's does, select and casts.
#include <cmath>
#include <cstdint>

#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/vector_emitter.h"

namespace tessel::emitc {
namespace {

// An integer literal standing for a value of the integer type `type` wraps
// like arithmetic (modulo 2^bits, into [IntMin, IntMax]).
int64_t WrapLiteral(int64_t value, ElemType type) {
  const int bits = ElemInfo(type).bits;
  const uint64_t low =
      static_cast<uint64_t>(value) & ((uint64_t{1} << bits) - 1);
  return static_cast<int64_t>(low) > IntMax(type)
             ? static_cast<int64_t>(low) - (int64_t{1} << bits)
             : static_cast<int64_t>(low);
}

// Integers beyond 2^53 do not survive a trip through double: the C
// compiler converts them to the float type itself, rounding once.
bool ExactInDouble(int64_t value) {
  constexpr int64_t kLimit = int64_t{1} << 53;
  return value >= -kLimit && value <= kLimit;
}

// The literal `literal` as a value of `type`.
absl::StatusOr<CExpr> Literal(const ir::Node& literal, ElemType type) {
  if (literal.is_float_literal()) {
    if (!IsFloat(type)) return Unexpected(literal, "an integer literal");
    return FloatLiteral(literal.float_value(), type);
  }
  int64_t value = literal.int_value();
  if (!IsFloat(type)) return IntLiteral(WrapLiteral(value, type));
  if (ExactInDouble(value)) {
    return FloatLiteral(static_cast<double>(value), type);
  }
  return Cast(ElemTypeCName(type), IntLiteral(value));
}

// Is `operand` a float literal whose integer part `to` holds? Its cast is
// then defined C and needs no check.
bool LiteralFits(const ir::Node& operand, ElemType to) {
  if (!operand.is(ir::Op::kConst) || !operand.is_float_literal()) return false;
  double truncated = std::trunc(operand.float_value());
  return truncated >= static_cast<double>(IntMin(to)) &&
         truncated <= static_cast<double>(IntMax(to));
}

}  // namespace

absl::StatusOr<CExpr> ExprEmitter::Data(const ir::Node& expr) const {
  if (!expr.type().is_elem()) return Unexpected(expr, "a data value");
  ElemType type = expr.type().elem();
  switch (expr.op()) {
    case ir::Op::kConst:
      return Literal(expr, type);
    case ir::Op::kRef:
      return ScalarValue(expr);
    case ir::Op::kLoad:
      return Element(expr, /*write=*/false);
    case ir::Op::kReadConfig:
      return ReadConfig(expr);
    case ir::Op::kCast:
      return CastValue(*expr.operand(0), type);
    case ir::Op::kReduction:
    case ir::Op::kExtract:
      if (vectors_ == nullptr) return Unexpected(expr, "a data value");
      return vectors_->Scalar(expr);
    case ir::Op::kSelect:
      if (vectors_ != nullptr) return vectors_->ScalarSelect(expr);
      return DataOperation(expr, type);
    default:
      return DataOperation(expr, type);
  }
}

CExpr ExprEmitter::Arithmetic(ir::Op op, const CExpr& a, const CExpr& b,
                              ElemType type) {
  const Helper helper = Helper::On(op == ir::Op::kAdd   ? HelperOp::kAdd
                                   : op == ir::Op::kSub ? HelperOp::kSub
                                   : op == ir::Op::kMul ? HelperOp::kMul
                                                        : HelperOp::kDiv,
                                   type);
  switch (type) {
    case ElemType::kF32:
    case ElemType::kF64:
      break;
    case ElemType::kF16:
    case ElemType::kI32:
      return CallHelper(helper, {a, b});
    case ElemType::kI8:
      if (op == ir::Op::kDiv) return CallHelper(helper, {a, b});
      // C computes on int, where 8-bit operands cannot overflow; the
      // conversion back wraps (modulo 2^8 in GCC and Clang).
      return Cast("int8_t", Binary(ir::Spelling(op), a, b));
  }
  return Binary(ir::Spelling(op), a, b);
}

bool ExprEmitter::ReducesWithPlusEquals(ElemType type) {
  switch (type) {
    case ElemType::kF32:
    case ElemType::kF64:
    case ElemType::kI8:  // on int, wrapping when converted back
      return true;
    case ElemType::kF16:
    case ElemType::kI32:
      break;
  }
  return false;
}

absl::StatusOr<CExpr> ExprEmitter::DataOperation(const ir::Node& expr,
                                                 ElemType type) const {
  std::vector<CExpr> operands;
  for (const ir::Node* operand : expr.operands()) {
    // The condition of a select is a control condition.
    auto value = expr.is(ir::Op::kSelect) && operands.empty()
                     ? Control(*operand)
                     : Data(*operand);
    if (!value.ok()) return value.status();
    operands.push_back(*std::move(value));
  }
  switch (expr.op()) {
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
      return Arithmetic(expr.op(), operands[0], operands[1], type);
    case ir::Op::kMax:
      return CallHelper(Helper::On(HelperOp::kMax, type), operands);
    case ir::Op::kMin:
      return CallHelper(Helper::On(HelperOp::kMin, type), operands);
    case ir::Op::kNeg:
      if (type == ElemType::kI32) {
        return CallHelper(Helper::On(HelperOp::kNeg, type), operands);
      }
      // C computes on int, where an i8 cannot overflow; the conversion
      // back wraps. Negating a float is exact, in any evaluation format.
      if (type == ElemType::kI8) return Cast("int8_t", Unary("-", operands[0]));
      return Unary("-", operands[0]);
    case ir::Op::kSelect:
      return Conditional(operands[0], operands[1], operands[2]);
    case ir::Op::kFma:
      return FusedMultiplyAdd(expr, operands, type);
    default:
      return Unexpected(expr, "a data value");
  }
}

absl::StatusOr<CExpr> ExprEmitter::FusedMultiplyAdd(
    const ir::Node& expr, const std::vector<CExpr>& operands, ElemType type) {
  switch (type) {
    case ElemType::kF32:
      return Call("fmaf", operands);
    case ElemType::kF64:
      return Call("fma", operands);
    case ElemType::kF16:
      return ErrorAt(expr.loc(),
                     "emit-c does not translate an fma of f16 scalars yet");
    case ElemType::kI32:
    case ElemType::kI8:
      break;
  }
  // Integers wrap: their fma is a product and a sum.
  return Arithmetic(ir::Op::kAdd,
                    Arithmetic(ir::Op::kMul, operands[0], operands[1], type),
                    operands[2], type);
}

absl::StatusOr<CExpr> ExprEmitter::CastValue(const ir::Node& operand,
                                             ElemType to) const {
  // An integer literal operand is simply a literal of the target type.
  if (operand.is(ir::Op::kConst) && !operand.is_float_literal()) {
    return Literal(operand, to);
  }
  auto value = Data(operand);
  if (!value.ok()) return value;
  ElemType from = operand.type().elem();
  if (from == to) return value;
  // C leaves a float to integer conversion undefined when the integer
  // type cannot hold the value; run-sim reports an error, and so does the
  // helper.
  if (IsFloat(from) && !IsFloat(to) && !LiteralFits(operand, to)) {
    return CallHelper(Helper::CastTo(to, from), {*value});
  }
  return Cast(ElemTypeCName(to), *value);
}

}  // namespace tessel::emitc
