// Element and control types of TIR (formats/tir/README.md, "Types").
#ifndef TESSEL_LIBS_IR_TYPES_H_
#define TESSEL_LIBS_IR_TYPES_H_

#include <optional>

#include "absl/strings/string_view.h"

namespace tessel {

enum class ElemType { kF32, kF64, kI8, kI32 };

std::optional<ElemType> ParseElemType(absl::string_view name);
absl::string_view ElemTypeName(ElemType type);
// The C99 type that holds an element: float, double, int8_t, int32_t.
absl::string_view ElemTypeCName(ElemType type);
bool IsFloat(ElemType type);
int ElemTypeBytes(ElemType type);

enum class ControlType { kSize, kIndex, kBool, kStride };

std::optional<ControlType> ParseControlType(absl::string_view name);
absl::string_view ControlTypeName(ControlType type);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_TYPES_H_
