// Element and control types of TIR (formats/tir/README.md, "Types").
// Element types are the rows of elem_types.def; everything that only names,
// sizes or lays out an element type reads its row here.
#ifndef TESSEL_LIBS_IR_TYPES_H_
#define TESSEL_LIBS_IR_TYPES_H_

#include <cstdint>
#include <optional>
#include <string>

#include "absl/strings/string_view.h"
#include "libs/support/float_format.h"

namespace tessel {

enum class ElemType : uint8_t {
#define TIR_ELEM_TYPE(ENUM, NAME, KIND, BITS, PRECISION, NPY, NUMPY, C_TYPE) \
  k##ENUM,
#include "libs/ir/elem_types.def"
#undef TIR_ELEM_TYPE
};

enum class ElemKind : uint8_t { kFloat, kSignedInt };

// A row of elem_types.def (see there for the columns).
struct ElemTypeInfo {
  ElemType type;
  absl::string_view name;  // "f32"
  ElemKind kind;
  int bits;
  int precision;                 // significand bits of a float, 0 otherwise
  absl::string_view npy_descr;   // "<f4"
  absl::string_view numpy_name;  // "float32"
  absl::string_view c_name;      // "float"
};

inline constexpr ElemTypeInfo kElemTypes[] = {
#define TIR_ELEM_TYPE(ENUM, NAME, KIND, BITS, PRECISION, NPY, NUMPY, C_TYPE) \
  {ElemType::k##ENUM, NAME, ElemKind::KIND, BITS,                            \
   PRECISION,         NPY,  NUMPY,          C_TYPE},
#include "libs/ir/elem_types.def"
#undef TIR_ELEM_TYPE
};

constexpr const ElemTypeInfo& ElemInfo(ElemType type) {
  return kElemTypes[static_cast<int>(type)];
}

std::optional<ElemType> ParseElemType(absl::string_view name);
inline absl::string_view ElemTypeName(ElemType type) {
  return ElemInfo(type).name;
}
// The C99 type that holds an element: float, double, int8_t, ...
inline absl::string_view ElemTypeCName(ElemType type) {
  return ElemInfo(type).c_name;
}
inline bool IsFloat(ElemType type) {
  return ElemInfo(type).kind == ElemKind::kFloat;
}
inline int ElemTypeBytes(ElemType type) { return ElemInfo(type).bits / 8; }

// A column of every row, for messages: "f16, f32, f64, i8 or i32" (names),
// "float16, float32, ..." (&ElemTypeInfo::numpy_name).
std::string ElemTypeNames(
    absl::string_view ElemTypeInfo::*column = &ElemTypeInfo::name);

// Of a float type: its IEEE 754 format.
FloatFormat FloatFormatOf(ElemType type);
// `value` rounded to the float type `type` as IEEE 754 rounds by default
// (to nearest, ties to even; overflow to infinity).
double RoundToFloat(ElemType type, double value);
// Whether a literal of value `value` fits the float type `type`: it does
// unless it is finite but rounds to infinity (3.4028235e38, NumPy's text for
// the largest f32, fits f32; 1e39 does not, nor 65520 f16).
bool FloatLiteralFits(ElemType type, double value);

// Of an integer type: the least and the greatest value.
int64_t IntMin(ElemType type);
int64_t IntMax(ElemType type);

enum class ControlType { kSize, kIndex, kBool, kStride };

std::optional<ControlType> ParseControlType(absl::string_view name);
absl::string_view ControlTypeName(ControlType type);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_TYPES_H_
