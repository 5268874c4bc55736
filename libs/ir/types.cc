#include "libs/ir/types.h"

#include <cmath>

#include "absl/strings/str_cat.h"

namespace tessel {

// The table is indexed by the enumerator.
static_assert([] {
  for (int i = 0; i < static_cast<int>(std::size(kElemTypes)); ++i) {
    if (static_cast<int>(kElemTypes[i].type) != i) return false;
  }
  return true;
}());

std::optional<ElemType> ParseElemType(absl::string_view name) {
  for (const ElemTypeInfo& info : kElemTypes) {
    if (info.name == name) return info.type;
  }
  return std::nullopt;
}

std::string ElemTypeNames(absl::string_view ElemTypeInfo::*column) {
  std::string names;
  const size_t count = std::size(kElemTypes);
  for (size_t i = 0; i < count; ++i) {
    absl::StrAppend(&names,
                    i == 0           ? ""
                    : i + 1 == count ? " or "
                                     : ", ",
                    kElemTypes[i].*column);
  }
  return names;
}

FloatFormat FloatFormatOf(ElemType type) {
  return {ElemInfo(type).bits, ElemInfo(type).precision};
}

double RoundToFloat(ElemType type, double value) {
  switch (type) {
    case ElemType::kF32:
      return static_cast<float>(value);  // the hardware rounds alike
    case ElemType::kF64:
      return value;
    case ElemType::kF16:
      return RoundToFormat(value, FloatFormatOf(type));
    case ElemType::kI8:
    case ElemType::kI32:
      break;
  }
  return value;
}

bool FloatLiteralFits(ElemType type, double value) {
  return !std::isfinite(value) || std::isfinite(RoundToFloat(type, value));
}

int64_t IntMin(ElemType type) {
  return -(int64_t{1} << (ElemInfo(type).bits - 1));
}

int64_t IntMax(ElemType type) {
  return (int64_t{1} << (ElemInfo(type).bits - 1)) - 1;
}

std::optional<ControlType> ParseControlType(absl::string_view name) {
  if (name == "size") return ControlType::kSize;
  if (name == "index") return ControlType::kIndex;
  if (name == "bool") return ControlType::kBool;
  if (name == "stride") return ControlType::kStride;
  return std::nullopt;
}

absl::string_view ControlTypeName(ControlType type) {
  switch (type) {
    case ControlType::kSize:
      return "size";
    case ControlType::kIndex:
      return "index";
    case ControlType::kBool:
      return "bool";
    case ControlType::kStride:
      return "stride";
  }
  return "?";
}

}  // namespace tessel
