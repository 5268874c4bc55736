// Scalar data values and the arithmetic that gives them meaning, one value
// at a time, for constants, diagnostics and the access-pattern evaluator;
// the interpreter's loops compute many at a time with column_ops.h. Both
// compile from element_ops.h, so that `(+ a b)` means the same thing
// everywhere, and the meaning is the one C gives the code `emit-c` writes:
//   - f32 arithmetic is done in float, f64 in double (no excess precision),
//     f16 in float rounded to f16 after every operation (the correctly
//     rounded result);
//   - i8 results are reduced to 8 bits after every operation, i32 results
//     wrap modulo 2^32;
//   - integer division truncates; dividing by zero is an error;
//   - (max a b) is `a < b ? b : a` and (min a b) is `b < a ? b : a`;
//   - casts convert as C does: float to integer truncates (a value out of
//     the target's range, or NaN, is an error), integer to narrower integer
//     wraps, to a float type rounds once from the exact value.
#ifndef TESSEL_LIBS_INTERP_SCALAR_H_
#define TESSEL_LIBS_INTERP_SCALAR_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "libs/interp/element_ops.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"

namespace tessel {

// A data value. f16 and f32 values are held in `f` already rounded to their
// type (a double holds each of their values exactly); i8 values in `i`
// within [-128, 127].
struct Scalar {
  ElemType type = ElemType::kF32;
  double f = 0;
  int32_t i = 0;

  static Scalar Float(ElemType type, double value);  // rounds to `type`
  static Scalar Int(ElemType type, int32_t value);   // wraps for i8
  // The value as a double (exact for every element type).
  double ToDouble() const { return IsFloat(type) ? f : i; }
};

// The arithmetic of the IR's ops + - * / max min, and the comparison of
// < <= > >= == !=; nullopt for other ops.
std::optional<ArithOp> ArithOpOf(ir::Op op);
std::optional<CompareOp> CompareOpOf(ir::Op op);

enum class ScalarError : uint8_t {
  kNone,
  kDivisionByZero,  // integer division by zero
  kOutOfRange,      // a float to integer cast the target cannot hold
  kNotAnInteger,    // a float literal standing for an integer type
};
// A lowercase description, e.g. "integer division by zero".
absl::string_view ScalarErrorText(ScalarError error);

// `a op b`; both operands have the same type, which the result has too.
ScalarError Arith(ArithOp op, const Scalar& a, const Scalar& b, Scalar& result);
Scalar Negate(const Scalar& a);
// Both operands have the same type; NaN compares as C compares it.
bool Compare(CompareOp op, const Scalar& a, const Scalar& b);
bool CompareIntegers(CompareOp op, int64_t a, int64_t b);

// (cast TO a).
ScalarError Cast(ElemType to, const Scalar& a, Scalar& result);

// The value of a literal of element type `type` (elaboration gave it that
// type): integer types wrap an integer literal to their width, as they wrap
// arithmetic; a float literal is an error for an integer type.
ScalarError AdoptIntLiteral(int64_t value, ElemType type, Scalar& result);
ScalarError AdoptFloatLiteral(double value, ElemType type, Scalar& result);

// Element access in host byte order.
Scalar LoadScalar(ElemType type, const uint8_t* data);
void StoreScalar(const Scalar& value, uint8_t* data);

// The value as TIR would write it ("1.5", "-3").
std::string ScalarText(const Scalar& value);

// Checked control (index) arithmetic: false when the result overflows
// 64 bits.
inline bool AddIndex(int64_t a, int64_t b, int64_t& result) {
  return !__builtin_add_overflow(a, b, &result);
}
inline bool SubIndex(int64_t a, int64_t b, int64_t& result) {
  return !__builtin_sub_overflow(a, b, &result);
}
inline bool MulIndex(int64_t a, int64_t b, int64_t& result) {
  return !__builtin_mul_overflow(a, b, &result);
}
// Floor division and modulo by a positive divisor.
int64_t FloorDiv(int64_t a, int64_t b);
int64_t FloorMod(int64_t a, int64_t b);

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_SCALAR_H_
