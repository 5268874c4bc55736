// Element, control and data types of TIR (formats/tir/README.md, "Types").
#ifndef TESSEL_LIBS_IR_TYPES_H_
#define TESSEL_LIBS_IR_TYPES_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"

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

// The type of a data value at the loop level, or of a tensor-level parameter:
// a scalar (rank 0), a tensor or a window. Dimensions are control expressions
// (integer literals once a kernel is specialised).
struct DataType {
  ElemType elem = ElemType::kF32;
  bool is_window = false;
  std::vector<Sexpr> dims;

  int rank() const { return static_cast<int>(dims.size()); }
  bool is_scalar() const { return dims.empty() && !is_window; }
};

// Parses `f32`, `(f32 D...)` or `(window f32 D...)`.
absl::StatusOr<DataType> ParseDataType(const Sexpr& type);
Sexpr DataTypeToSexpr(const DataType& type);

// The dimensions as integers, or nullopt when one is not a literal.
std::optional<std::vector<int64_t>> ConstantDims(const DataType& type);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_TYPES_H_
