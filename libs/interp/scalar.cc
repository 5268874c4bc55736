#include "libs/interp/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {
namespace {

// `value` reduced modulo 2^bits of the integer type `type`.
int32_t Wrap(ElemType type, int64_t value) {
  switch (type) {
    case ElemType::kI8:
      return static_cast<int8_t>(static_cast<uint8_t>(value & 0xff));
    case ElemType::kI32:
      return static_cast<int32_t>(static_cast<uint32_t>(value & 0xffffffff));
    case ElemType::kF16:
    case ElemType::kF32:
    case ElemType::kF64:
      break;
  }
  return static_cast<int32_t>(value);
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
  const double truncated = std::trunc(value);
  if (std::isnan(value) || truncated < static_cast<double>(IntMin(to)) ||
      truncated > static_cast<double>(IntMax(to))) {
    return ScalarError::kOutOfRange;
  }
  result = Scalar::Int(to, static_cast<int32_t>(truncated));
  return ScalarError::kNone;
}

}  // namespace

Scalar Scalar::Float(ElemType type, double value) {
  Scalar s;
  s.type = type;
  s.f = RoundToFloat(type, value);
  return s;
}

Scalar Scalar::Int(ElemType type, int32_t value) {
  Scalar s;
  s.type = type;
  s.i = Wrap(type, value);
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
    case ElemType::kF16:
      // In float, then rounded to f16 once: float holds the exact sum,
      // difference and product of two f16 values, and has more than twice
      // f16's 11 bits plus two, so that rounding a quotient to float first
      // does not change its rounding to f16 (Figueroa, 1995). This is the
      // correctly rounded result, as emit-c's C computes it.
      result.type = ElemType::kF16;
      result.f = RoundToFloat(ElemType::kF16,
                              FloatArith<float>(op, static_cast<float>(a.f),
                                                static_cast<float>(b.f)));
      return ScalarError::kNone;
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
      result.i = Wrap(a.type, value);
      return ScalarError::kNone;
    }
  }
  return ScalarError::kNone;
}

Scalar Negate(const Scalar& a) {
  Scalar result = a;
  if (IsFloat(a.type)) {
    result.f = -a.f;  // exact in every float type
  } else {
    result.i = Wrap(a.type, -int64_t{a.i});
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
  switch (type) {
    case ElemType::kF32:
      // One rounding, from the integer, as C converts a constant.
      result.f = static_cast<float>(value);
      break;
    case ElemType::kF16:
    case ElemType::kF64:
      // Exact in double up to 2^53, and f16 overflows long before; beyond,
      // double's one rounding is f64's.
      result.f = RoundToFloat(type, static_cast<double>(value));
      break;
    case ElemType::kI8:
    case ElemType::kI32:
      // Integer types wrap the literal as they wrap arithmetic (emit-c
      // writes the wrapped value).
      result.i = Wrap(type, value);
      break;
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
    case ElemType::kF16: {
      uint16_t bits;
      std::memcpy(&bits, data, sizeof bits);
      s.f = DecodeFloat(bits, FloatFormatOf(type));
      break;
    }
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
    case ElemType::kF16: {
      const auto bits = static_cast<uint16_t>(
          EncodeFloat(value.f, FloatFormatOf(value.type)));
      std::memcpy(data, &bits, sizeof bits);
      break;
    }
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
