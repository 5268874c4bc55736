#include "libs/ir/types.h"

#include "absl/strings/str_cat.h"
#include "libs/sexpr/printer.h"

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

absl::StatusOr<DataType> ParseDataType(const Sexpr& type) {
  DataType result;
  if (type.is_symbol()) {
    auto elem = ParseElemType(type.text());
    if (!elem) {
      return ErrorAt(type.loc(),
                     absl::StrCat("unknown element type '", type.text(), "'"));
    }
    result.elem = *elem;
    return result;
  }
  if (!type.is_list() || type.size() == 0 || !type[0].is_symbol()) {
    return ErrorAt(type.loc(), absl::StrCat("expected a type, found '",
                                            PrintFlat(type), "'"));
  }
  size_t first = 0;
  if (type[0].is_symbol("window")) {
    result.is_window = true;
    first = 1;
    if (type.size() < 2 || !type[1].is_symbol()) {
      return ErrorAt(type.loc(), "expected (window ELEM DIM...)");
    }
  }
  auto elem = ParseElemType(type[first].text());
  if (!elem) {
    return ErrorAt(
        type[first].loc(),
        absl::StrCat("unknown element type '", PrintFlat(type[first]), "'"));
  }
  result.elem = *elem;
  for (size_t i = first + 1; i < type.size(); ++i) {
    const Sexpr& dim = type[i];
    if (dim.is_float() || dim.is_string()) {
      return ErrorAt(dim.loc(), "a dimension must be an integer expression");
    }
    if (dim.is_int() && dim.int_value() <= 0) {
      return ErrorAt(dim.loc(), absl::StrCat("dimension ", dim.int_value(),
                                             " is not positive"));
    }
    result.dims.push_back(dim);
  }
  if (result.is_window && result.dims.empty()) {
    return ErrorAt(type.loc(), "a window needs at least one dimension");
  }
  return result;
}

Sexpr DataTypeToSexpr(const DataType& type) {
  Sexpr elem = Sexpr::Symbol(std::string(ElemTypeName(type.elem)));
  if (type.is_scalar()) return elem;
  std::vector<Sexpr> items;
  if (type.is_window) items.push_back(Sexpr::Symbol("window"));
  items.push_back(elem);
  items.insert(items.end(), type.dims.begin(), type.dims.end());
  return Sexpr::List(std::move(items));
}

std::optional<std::vector<int64_t>> ConstantDims(const DataType& type) {
  std::vector<int64_t> dims;
  for (const Sexpr& dim : type.dims) {
    if (!dim.is_int()) return std::nullopt;
    dims.push_back(dim.int_value());
  }
  return dims;
}

}  // namespace tessel
