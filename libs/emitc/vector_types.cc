#include "libs/emitc/vector_types.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/support/source.h"

namespace tessel::emitc {

int64_t VectorShape::lanes() const {
  int64_t count = 1;
  for (int64_t dim : dims) count *= dim;
  return count;
}

int VectorShape::padded() const { return PaddedLanes(lanes()); }

bool VectorShape::WiderThanRegister() const {
  return int64_t{padded()} * ElemTypeBytes(elem) > kRegisterBytes;
}

std::string VectorShape::Name() const { return absl::StrJoin(dims, "x"); }

std::vector<int64_t> LaneStrides(const std::vector<int64_t>& dims) {
  std::vector<int64_t> strides(dims.size(), 1);
  for (size_t k = dims.size(); k-- > 1;) strides[k - 1] = strides[k] * dims[k];
  return strides;
}

int PaddedLanes(int64_t lanes) {
  int padded = 1;
  while (padded < lanes) padded *= 2;
  return padded;
}

absl::StatusOr<VectorShape> ShapeOf(const ir::Type& type,
                                    const ir::Node& where) {
  VectorShape shape;
  shape.elem = type.elem();
  // The verifier bounds every dimension; their product may still be huge.
  int64_t lanes = 1;
  for (const ir::Dim& dim : type.dims()) {
    shape.dims.push_back(dim.value);
    if (__builtin_mul_overflow(lanes, dim.value, &lanes)) lanes = INT64_MAX;
  }
  if (lanes > kMaxVectorLanes) {
    return ErrorAt(
        where.loc(),
        absl::StrCat("emit-c writes a vector as one C vector of at "
                     "most ",
                     kMaxVectorLanes, " lanes, and ", ir::TypeText(type),
                     " has ", lanes, ": split it into smaller vectors"));
  }
  return shape;
}

absl::StatusOr<VectorShape> ShapeOf(const ir::Node& node) {
  return ShapeOf(node.type(), node);
}

VectorCType DataType(ElemType elem, int lanes) {
  return VectorCType{IsFloat(elem) ? LaneKind::kFloat : LaneKind::kSigned,
                     ElemTypeBytes(elem) * 8, lanes};
}

VectorCType DataType(const VectorShape& shape) {
  return DataType(shape.elem, shape.padded());
}

VectorCType SignedType(int bits, int lanes) {
  return VectorCType{LaneKind::kSigned, bits, lanes};
}

VectorCType UnsignedType(int bits, int lanes) {
  return VectorCType{LaneKind::kUnsigned, bits, lanes};
}

std::string VectorTypeName(const VectorCType& type) {
  const char* kind = type.kind == LaneKind::kFloat    ? "f"
                     : type.kind == LaneKind::kSigned ? "i"
                                                      : "u";
  return absl::StrCat("tsl_", kind, type.bits, "x", type.lanes);
}

std::string LaneCType(const VectorCType& type) {
  switch (type.kind) {
    case LaneKind::kFloat:
      return type.bits == 16   ? "_Float16"
             : type.bits == 32 ? "float"
                               : "double";
    case LaneKind::kSigned:
      return absl::StrCat("int", type.bits, "_t");
    case LaneKind::kUnsigned:
      break;
  }
  return absl::StrCat("uint", type.bits, "_t");
}

std::string VectorTypeDefinition(const VectorCType& type) {
  return absl::StrCat("typedef ", LaneCType(type), " ", VectorTypeName(type),
                      " __attribute__((vector_size(",
                      type.lanes * type.bits / 8, ")));\n");
}

}  // namespace tessel::emitc
