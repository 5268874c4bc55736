#include "libs/interp/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {
namespace {

int32_t WrapToI8(int64_t value) {
  return static_cast<int8_t>(static_cast<uint8_t>(value & 0xff));
}

int32_t WrapToI32(int64_t value) {
  return static_cast<int32_t>(static_cast<uint32_t>(value & 0xffffffff));
}

template <typename T>
T CMax(T a, T b) {
  return a < b ? b : a;
}
template <typename T>
T CMin(T a, T b) {
  return b < a ? b : a;
}

template <typename T>
T FloatArith(ArithOp op, T a, T b) {
  switch (op) {
    case ArithOp::kAdd:
      return a + b;
    case ArithOp::kSub:
      return a - b;
    case ArithOp::kMul:
      return a * b;
    case ArithOp::kDiv:
      return a / b;
    case ArithOp::kMax:
      return CMax(a, b);
    case ArithOp::kMin:
      return CMin(a, b);
  }
  return a;
}

// Integer arithmetic on values of at most 32 bits, exact in 64 bits; the
// caller wraps the result to the type's width.
ScalarError IntArith(ArithOp op, int64_t a, int64_t b, int64_t& result) {
  switch (op) {
    case ArithOp::kAdd:
      result = a + b;
      break;
    case ArithOp::kSub:
      result = a - b;
      break;
    case ArithOp::kMul:
      result = a * b;
      break;
    case ArithOp::kDiv:
      if (b == 0) return ScalarError::kDivisionByZero;
      result = a / b;  // truncates, as C does
      break;
    case ArithOp::kMax:
      result = CMax(a, b);
      break;
    case ArithOp::kMin:
      result = CMin(a, b);
      break;
  }
  return ScalarError::kNone;
}

template <typename T>
bool CompareValues(CompareOp op, T a, T b) {
  switch (op) {
    case CompareOp::kLt:
      return a < b;
    case CompareOp::kLe:
      return a <= b;
    case CompareOp::kGt:
      return a > b;
    case CompareOp::kGe:
      return a >= b;
    case CompareOp::kEq:
      return a == b;
    case CompareOp::kNe:
      return a != b;
  }
  return false;
}

// Float to integer as C converts: truncation toward zero; values the target
// cannot hold (and NaN) are undefined behaviour in C, so errors here.
ScalarError FloatToInt(double value, ElemType to, Scalar& result) {
  const double low = to == ElemType::kI8 ? -128.0 : -2147483648.0;
  const double high = to == ElemType::kI8 ? 127.0 : 2147483647.0;
  const double truncated = std::trunc(value);
  if (std::isnan(value) || truncated < low || truncated > high) {
    return ScalarError::kOutOfRange;
  }
  result = Scalar::Int(to, static_cast<int32_t>(truncated));
  return ScalarError::kNone;
}

}  // namespace

Scalar Scalar::Float(ElemType type, double value) {
  Scalar s;
  s.type = type;
  s.f = type == ElemType::kF32 ? static_cast<double>(static_cast<float>(value))
                               : value;
  return s;
}

Scalar Scalar::Int(ElemType type, int32_t value) {
  Scalar s;
  s.type = type;
  s.i = type == ElemType::kI8 ? WrapToI8(value) : value;
  return s;
}

std::optional<ArithOp> ArithOpOf(ir::Op op) {
  switch (op) {
    case ir::Op::kAdd:
      return ArithOp::kAdd;
    case ir::Op::kSub:
      return ArithOp::kSub;
    case ir::Op::kMul:
      return ArithOp::kMul;
    case ir::Op::kDiv:
      return ArithOp::kDiv;
    case ir::Op::kMax:
      return ArithOp::kMax;
    case ir::Op::kMin:
      return ArithOp::kMin;
    default:
      return std::nullopt;
  }
}

std::optional<CompareOp> CompareOpOf(ir::Op op) {
  switch (op) {
    case ir::Op::kLt:
      return CompareOp::kLt;
    case ir::Op::kLe:
      return CompareOp::kLe;
    case ir::Op::kGt:
      return CompareOp::kGt;
    case ir::Op::kGe:
      return CompareOp::kGe;
    case ir::Op::kEq:
      return CompareOp::kEq;
    case ir::Op::kNe:
      return CompareOp::kNe;
    default:
      return std::nullopt;
  }
}

absl::string_view ScalarErrorText(ScalarError error) {
  switch (error) {
    case ScalarError::kNone:
      return "no error";
    case ScalarError::kDivisionByZero:
      return "integer division by zero";
    case ScalarError::kOutOfRange:
      return "the value is out of the range of the target type";
    case ScalarError::kNotAnInteger:
      return "a float literal cannot stand for an integer";
  }
  return "?";
}

ScalarError Arith(ArithOp op, const Scalar& a, const Scalar& b,
                  Scalar& result) {
  switch (a.type) {
    case ElemType::kF32:
      result.type = ElemType::kF32;
      result.f = FloatArith<float>(op, static_cast<float>(a.f),
                                   static_cast<float>(b.f));
      return ScalarError::kNone;
    case ElemType::kF64:
      result.type = ElemType::kF64;
      result.f = FloatArith<double>(op, a.f, b.f);
      return ScalarError::kNone;
    case ElemType::kI8:
    case ElemType::kI32: {
      int64_t value = 0;
      ScalarError error = IntArith(op, a.i, b.i, value);
      if (error != ScalarError::kNone) return error;
      result.type = a.type;
      result.i = a.type == ElemType::kI8 ? WrapToI8(value) : WrapToI32(value);
      return ScalarError::kNone;
    }
  }
  return ScalarError::kNone;
}

Scalar Negate(const Scalar& a) {
  Scalar result = a;
  if (IsFloat(a.type)) {
    result.f = -a.f;  // exact in double for f32 values too
  } else {
    result.i = a.type == ElemType::kI8 ? WrapToI8(-int64_t{a.i})
                                       : WrapToI32(-int64_t{a.i});
  }
  return result;
}

bool Compare(CompareOp op, const Scalar& a, const Scalar& b) {
  return IsFloat(a.type) ? CompareValues(op, a.f, b.f)
                         : CompareValues(op, a.i, b.i);
}

bool CompareIntegers(CompareOp op, int64_t a, int64_t b) {
  return CompareValues(op, a, b);
}

ScalarError Cast(ElemType to, const Scalar& a, Scalar& result) {
  if (IsFloat(to)) {
    result = Scalar::Float(to, a.ToDouble());
    return ScalarError::kNone;
  }
  if (IsFloat(a.type)) return FloatToInt(a.f, to, result);
  result = Scalar::Int(to, a.i);
  return ScalarError::kNone;
}

ScalarError AdoptIntLiteral(int64_t value, ElemType type, Scalar& result) {
  result.type = type;
  if (IsFloat(type)) {
    // One rounding, from the integer, as C converts a constant.
    result.f = type == ElemType::kF32
                   ? static_cast<double>(static_cast<float>(value))
                   : static_cast<double>(value);
  } else {
    // Integer types wrap the literal as they wrap arithmetic (emit-c
    // writes the wrapped value).
    result.i = type == ElemType::kI8 ? WrapToI8(value) : WrapToI32(value);
  }
  return ScalarError::kNone;
}

ScalarError AdoptFloatLiteral(double value, ElemType type, Scalar& result) {
  if (!IsFloat(type)) return ScalarError::kNotAnInteger;
  result = Scalar::Float(type, value);
  return ScalarError::kNone;
}

Scalar LoadScalar(ElemType type, const uint8_t* data) {
  Scalar s;
  s.type = type;
  switch (type) {
    case ElemType::kF32: {
      float value;
      std::memcpy(&value, data, sizeof value);
      s.f = value;
      break;
    }
    case ElemType::kF64:
      std::memcpy(&s.f, data, sizeof s.f);
      break;
    case ElemType::kI8: {
      int8_t value;
      std::memcpy(&value, data, sizeof value);
      s.i = value;
      break;
    }
    case ElemType::kI32:
      std::memcpy(&s.i, data, sizeof s.i);
      break;
  }
  return s;
}

void StoreScalar(const Scalar& value, uint8_t* data) {
  switch (value.type) {
    case ElemType::kF32: {
      float f = static_cast<float>(value.f);
      std::memcpy(data, &f, sizeof f);
      break;
    }
    case ElemType::kF64:
      std::memcpy(data, &value.f, sizeof value.f);
      break;
    case ElemType::kI8: {
      int8_t i = static_cast<int8_t>(value.i);
      std::memcpy(data, &i, sizeof i);
      break;
    }
    case ElemType::kI32:
      std::memcpy(data, &value.i, sizeof value.i);
      break;
  }
}

std::string ScalarText(const Scalar& value) {
  if (IsFloat(value.type)) return AtomText(Sexpr::Float(value.f));
  return absl::StrCat(value.i);
}

int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if (a % b != 0 && (a < 0) != (b < 0)) --q;
  return q;
}

int64_t FloorMod(int64_t a, int64_t b) {
  int64_t r = a % b;
  if (r != 0 && (r < 0) != (b < 0)) r += b;
  return r;
}

}  // namespace tessel
