// The arithmetic of one data element of each type: the one definition of
// what TIR's data operations compute (formats/tir/README.md, "Types of data
// expressions"), inline so that the interpreter's loops over many elements
// (column_ops.h) and its single values (scalar.h) compile from the same
// code. While computing, a value of element type E is held in Repr<E>:
//   - f16 and f32 in float (an f16 value is exactly a float), f64 in double;
//   - i8 and i32 in int32_t, already wrapped to their width.
// f32 arithmetic is float arithmetic, f64 double, f16 float rounded to f16
// after every operation (correctly rounded: float holds the exact sum,
// difference and product of two f16 values and has more than twice f16's
// 11 bits plus two, so rounding a quotient to float first does not change
// its rounding to f16; Figueroa, 1995). Integer results wrap; integer
// division truncates and dividing by zero is an error. (max a b) is
// `a < b ? b : a` and (min a b) is `b < a ? b : a`, as C writes them.
#ifndef TESSEL_LIBS_INTERP_ELEMENT_OPS_H_
#define TESSEL_LIBS_INTERP_ELEMENT_OPS_H_

#include <cmath>
#include <cstdint>
#include <cstring>

#include "libs/ir/types.h"
#include "libs/support/float_format.h"

namespace tessel {

enum class ArithOp : uint8_t { kAdd, kSub, kMul, kDiv, kMax, kMin };
enum class CompareOp : uint8_t { kLt, kLe, kGt, kGe, kEq, kNe };

namespace element {

template <ElemType E>
struct ReprOf {
  using type = int32_t;
};
template <>
struct ReprOf<ElemType::kF16> {
  using type = float;
};
template <>
struct ReprOf<ElemType::kF32> {
  using type = float;
};
template <>
struct ReprOf<ElemType::kF64> {
  using type = double;
};
template <ElemType E>
using Repr = typename ReprOf<E>::type;

template <ElemType E>
constexpr bool kIsFloat =
    E == ElemType::kF16 || E == ElemType::kF32 || E == ElemType::kF64;

// An integer result reduced modulo 2^bits of E, as two's complement.
template <ElemType E>
inline int32_t Wrap(int64_t value) {
  if constexpr (E == ElemType::kI8) {
    return static_cast<int8_t>(static_cast<uint8_t>(value & 0xff));
  } else {
    return static_cast<int32_t>(static_cast<uint32_t>(value & 0xffffffff));
  }
}

// A float result rounded to E (f16: to the nearest f16, ties to even).
template <ElemType E>
inline Repr<E> RoundFloat(Repr<E> value) {
  if constexpr (E == ElemType::kF16) {
    return static_cast<float>(
        RoundToFormat(value, FloatFormatOf(ElemType::kF16)));
  } else {
    return value;
  }
}

template <typename T>
inline T CMax(T a, T b) {
  return a < b ? b : a;
}
template <typename T>
inline T CMin(T a, T b) {
  return b < a ? b : a;
}

// a OP b in E. Returns false (and leaves `result`) for an integer division
// by zero, the only operation that fails.
template <ElemType E, ArithOp Op>
inline bool Arith(Repr<E> a, Repr<E> b, Repr<E>& result) {
  if constexpr (kIsFloat<E>) {
    Repr<E> value;
    if constexpr (Op == ArithOp::kAdd) value = a + b;
    if constexpr (Op == ArithOp::kSub) value = a - b;
    if constexpr (Op == ArithOp::kMul) value = a * b;
    if constexpr (Op == ArithOp::kDiv) value = a / b;
    if constexpr (Op == ArithOp::kMax) value = CMax(a, b);
    if constexpr (Op == ArithOp::kMin) value = CMin(a, b);
    result = RoundFloat<E>(value);
    return true;
  } else {
    // Exact in 64 bits for operands of at most 32 bits, then wrapped.
    const int64_t x = a;
    const int64_t y = b;
    int64_t value = 0;
    if constexpr (Op == ArithOp::kAdd) value = x + y;
    if constexpr (Op == ArithOp::kSub) value = x - y;
    if constexpr (Op == ArithOp::kMul) value = x * y;
    if constexpr (Op == ArithOp::kDiv) {
      if (y == 0) return false;
      value = x / y;  // truncates, as C does
    }
    if constexpr (Op == ArithOp::kMax) value = CMax(x, y);
    if constexpr (Op == ArithOp::kMin) value = CMin(x, y);
    result = Wrap<E>(value);
    return true;
  }
}

// Calls `f.template operator()<Op>()` for the ArithOp `op`.
template <typename F>
inline auto WithArithOp(ArithOp op, F&& f) {
  switch (op) {
    case ArithOp::kAdd:
      return f.template operator()<ArithOp::kAdd>();
    case ArithOp::kSub:
      return f.template operator()<ArithOp::kSub>();
    case ArithOp::kMul:
      return f.template operator()<ArithOp::kMul>();
    case ArithOp::kDiv:
      return f.template operator()<ArithOp::kDiv>();
    case ArithOp::kMax:
      return f.template operator()<ArithOp::kMax>();
    case ArithOp::kMin:
      break;
  }
  return f.template operator()<ArithOp::kMin>();
}

// Calls `f.template operator()<E>()` for the element type `type`.
template <typename F>
inline auto WithElemType(ElemType type, F&& f) {
  switch (type) {
    case ElemType::kF16:
      return f.template operator()<ElemType::kF16>();
    case ElemType::kF32:
      return f.template operator()<ElemType::kF32>();
    case ElemType::kF64:
      return f.template operator()<ElemType::kF64>();
    case ElemType::kI8:
      return f.template operator()<ElemType::kI8>();
    case ElemType::kI32:
      break;
  }
  return f.template operator()<ElemType::kI32>();
}

// a * b + c with one rounding (fmaf; f64 and f16 from fma in double: the
// product of two f16 values is exact in double, and so is the sum unless
// one addend lies too far below the other's last bit to move it to or
// across an f16 midpoint). Integers wrap the product and the sum, which is
// wrapping the exact result: they have no rounding to fuse.
template <ElemType E>
inline Repr<E> Fma(Repr<E> a, Repr<E> b, Repr<E> c) {
  if constexpr (E == ElemType::kF32) {
    return std::fmaf(a, b, c);
  } else if constexpr (E == ElemType::kF64) {
    return std::fma(a, b, c);
  } else if constexpr (E == ElemType::kF16) {
    return static_cast<float>(
        RoundToFormat(std::fma(static_cast<double>(a), static_cast<double>(b),
                               static_cast<double>(c)),
                      FloatFormatOf(ElemType::kF16)));
  } else {
    Repr<E> product;
    Repr<E> sum;
    Arith<E, ArithOp::kMul>(a, b, product);
    Arith<E, ArithOp::kAdd>(product, c, sum);
    return sum;
  }
}

template <ElemType E>
inline Repr<E> Negate(Repr<E> a) {
  if constexpr (kIsFloat<E>) {
    return -a;  // exact in every float type
  } else {
    return Wrap<E>(-int64_t{a});
  }
}

// NaN compares as C compares it.
template <typename T>
inline bool Compare(CompareOp op, T a, T b) {
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

// (cast To a) from From, as C converts: to a float type rounds once from
// the exact value; a float to an integer truncates, and returns false for
// NaN or a value To cannot hold (undefined behaviour in C); an integer to a
// narrower one wraps.
template <ElemType From, ElemType To>
inline bool Cast(Repr<From> a, Repr<To>& result) {
  if constexpr (kIsFloat<To>) {
    // double holds every value of every element type exactly.
    const double exact = static_cast<double>(a);
    if constexpr (To == ElemType::kF16) {
      result = static_cast<float>(
          RoundToFormat(exact, FloatFormatOf(ElemType::kF16)));
    } else {
      result = static_cast<Repr<To>>(exact);  // the hardware rounds once
    }
    return true;
  } else if constexpr (kIsFloat<From>) {
    const double truncated = std::trunc(static_cast<double>(a));
    if (std::isnan(truncated) ||
        truncated < static_cast<double>(IntMin(To)) ||
        truncated > static_cast<double>(IntMax(To))) {
      return false;
    }
    result = static_cast<int32_t>(truncated);
    return true;
  } else {
    result = Wrap<To>(a);
    return true;
  }
}

// An element of E in memory (host byte order) and back.
template <ElemType E>
inline Repr<E> Load(const uint8_t* data) {
  if constexpr (E == ElemType::kF16) {
    uint16_t bits;
    std::memcpy(&bits, data, sizeof bits);
    return static_cast<float>(
        DecodeFloat(bits, FloatFormatOf(ElemType::kF16)));
  } else if constexpr (E == ElemType::kI8) {
    int8_t value;
    std::memcpy(&value, data, sizeof value);
    return value;
  } else {
    Repr<E> value;
    std::memcpy(&value, data, sizeof value);
    return value;
  }
}

template <ElemType E>
inline void Store(Repr<E> value, uint8_t* data) {
  if constexpr (E == ElemType::kF16) {
    const auto bits = static_cast<uint16_t>(
        EncodeFloat(value, FloatFormatOf(ElemType::kF16)));
    std::memcpy(data, &bits, sizeof bits);
  } else if constexpr (E == ElemType::kI8) {
    const auto narrow = static_cast<int8_t>(value);
    std::memcpy(data, &narrow, sizeof narrow);
  } else {
    std::memcpy(data, &value, sizeof value);
  }
}

}  // namespace element
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_ELEMENT_OPS_H_
