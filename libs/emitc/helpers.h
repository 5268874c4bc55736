// The static inline functions emit-c's output defines where it uses them, so
// that the C computes exactly what TIR defines whatever the C compiler's
// flags: floor division and modulo of control values; i32 arithmetic that
// wraps (C's signed overflow is undefined, and GCC folds `x + 1 > x` to
// true); f16 arithmetic computed in float and rounded to f16 once (C lets
// the compiler evaluate _Float16 in a wider format); integer division with
// TIR's value for INT_MIN / -1 and a run-time error for a zero divisor; float
// to integer casts with a run-time error for a value the integer type cannot
// hold (C leaves the conversion undefined); and max and min that evaluate each
// operand once, so that nested ones stay linear in size.
#ifndef TESSEL_LIBS_EMITC_HELPERS_H_
#define TESSEL_LIBS_EMITC_HELPERS_H_

#include <compare>
#include <optional>
#include <string>

#include "libs/ir/types.h"

namespace tessel::emitc {

enum class HelperOp {
  kFloorDiv,  // control only
  kFloorMod,  // control only
  kMax,
  kMin,
  kAdd,  // i32 and f16, as kSub and kMul
  kSub,
  kMul,
  kNeg,   // i32 only
  kDiv,   // i8, i32 and f16
  kCast,  // to an integer type from a float type
};

struct Helper {
  HelperOp op = HelperOp::kMax;
  // The type of the operands and the result; nullopt for control values
  // (int64_t). Of a cast: the result's.
  std::optional<ElemType> elem;
  // Of a cast: the operand's type.
  std::optional<ElemType> from;

  // A helper on control values, one on values of `elem`, a cast.
  static Helper OnControl(HelperOp op) {
    return Helper{op, std::nullopt, std::nullopt};
  }
  static Helper On(HelperOp op, ElemType elem) {
    return Helper{op, elem, std::nullopt};
  }
  static Helper CastTo(ElemType to, ElemType from) {
    return Helper{HelperOp::kCast, to, from};
  }

  friend auto operator<=>(const Helper&, const Helper&) = default;
};

// "tsl_floordiv", "tsl_max_f32", "tsl_min_i64" (control), "tsl_add_i32",
// "tsl_div_f16", "tsl_cast_i8_f32" (to i8 from f32).
std::string HelperName(const Helper& helper);

// The C definition of `helper`, with a comment saying why it exists.
std::string HelperDefinition(const Helper& helper);

// Does `helper` call the runtime's tsl_error (npy_runtime.h)? Casts call
// it through the runtime's tsl_cast_error.
bool HelperReportsErrors(const Helper& helper);
bool HelperReportsCastErrors(const Helper& helper);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_HELPERS_H_
