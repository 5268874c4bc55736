#include "libs/ir/types.h"

namespace tessel {

std::optional<ElemType> ParseElemType(absl::string_view name) {
  if (name == "f32") return ElemType::kF32;
  if (name == "f64") return ElemType::kF64;
  if (name == "i8") return ElemType::kI8;
  if (name == "i32") return ElemType::kI32;
  return std::nullopt;
}

absl::string_view ElemTypeName(ElemType type) {
  switch (type) {
    case ElemType::kF32:
      return "f32";
    case ElemType::kF64:
      return "f64";
    case ElemType::kI8:
      return "i8";
    case ElemType::kI32:
      return "i32";
  }
  return "?";
}

absl::string_view ElemTypeCName(ElemType type) {
  switch (type) {
    case ElemType::kF32:
      return "float";
    case ElemType::kF64:
      return "double";
    case ElemType::kI8:
      return "int8_t";
    case ElemType::kI32:
      return "int32_t";
  }
  return "?";
}

bool IsFloat(ElemType type) {
  return type == ElemType::kF32 || type == ElemType::kF64;
}

int ElemTypeBytes(ElemType type) {
  switch (type) {
    case ElemType::kF32:
    case ElemType::kI32:
      return 4;
    case ElemType::kF64:
      return 8;
    case ElemType::kI8:
      return 1;
  }
  return 0;
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
