#include "libs/interp/scalar.h"

#include <cmath>
#include <cstring>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {
namespace {

// The value of `s`, of element type E, as element_ops.h holds it.
template <ElemType E>
element::Repr<E> ReprOf(const Scalar& s) {
  if constexpr (element::kIsFloat<E>) {
    return static_cast<element::Repr<E>>(s.f);
  } else {
    return s.i;
  }
}

template <ElemType E>
Scalar ScalarOf(element::Repr<E> value) {
  Scalar s;
  s.type = E;
  if constexpr (element::kIsFloat<E>) {
    s.f = value;
  } else {
    s.i = value;
  }
  return s;
}

// `value` reduced modulo 2^bits of the integer type `type`.
int32_t Wrap(ElemType type, int64_t value) {
  return type == ElemType::kI8 ? element::Wrap<ElemType::kI8>(value)
                               : element::Wrap<ElemType::kI32>(value);
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
  return element::WithElemType(a.type, [&]<ElemType E>() {
    return element::WithArithOp(op, [&]<ArithOp Op>() {
      element::Repr<E> value;
      if (!element::Arith<E, Op>(ReprOf<E>(a), ReprOf<E>(b), value)) {
        return ScalarError::kDivisionByZero;
      }
      result = ScalarOf<E>(value);
      return ScalarError::kNone;
    });
  });
}

Scalar Negate(const Scalar& a) {
  return element::WithElemType(a.type, [&]<ElemType E>() {
    return ScalarOf<E>(element::Negate<E>(ReprOf<E>(a)));
  });
}

bool Compare(CompareOp op, const Scalar& a, const Scalar& b) {
  return IsFloat(a.type) ? element::Compare(op, a.f, b.f)
                         : element::Compare(op, a.i, b.i);
}

bool CompareIntegers(CompareOp op, int64_t a, int64_t b) {
  return element::Compare(op, a, b);
}

ScalarError Cast(ElemType to, const Scalar& a, Scalar& result) {
  return element::WithElemType(a.type, [&]<ElemType From>() {
    return element::WithElemType(to, [&]<ElemType To>() {
      element::Repr<To> value;
      if (!element::Cast<From, To>(ReprOf<From>(a), value)) {
        return ScalarError::kOutOfRange;
      }
      result = ScalarOf<To>(value);
      return ScalarError::kNone;
    });
  });
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
  return element::WithElemType(type, [&]<ElemType E>() {
    return ScalarOf<E>(element::Load<E>(data));
  });
}

void StoreScalar(const Scalar& value, uint8_t* data) {
  element::WithElemType(value.type, [&]<ElemType E>() {
    element::Store<E>(ReprOf<E>(value), data);
  });
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
