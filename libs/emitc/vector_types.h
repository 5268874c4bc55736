// The C types of the vector level (formats/tir/README.md, "Vector level"):
// a TIR vector of L lanes, whatever its shape, is one GCC/Clang vector
// extension value of N lanes, N the least power of two >= L (what
// `vector_size` accepts), its lanes row-major. Lanes L..N-1 are padding:
// no TIR value lives there, and the emitted code never lets them reach
// memory, an error check or a reduction. Masks (lane comparisons) are
// vectors of signed integers of the compared lanes' width, as C's vector
// comparisons give them; wrapping integer arithmetic computes on unsigned
// lanes.
#ifndef TESSEL_LIBS_EMITC_VECTOR_TYPES_H_
#define TESSEL_LIBS_EMITC_VECTOR_TYPES_H_

#include <compare>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/ir/types.h"

namespace tessel::emitc {

// What the lanes of a C vector type hold.
enum class LaneKind {
  kFloat,     // f16, f32, f64: _Float16, float, double
  kSigned,    // int8_t ... int64_t: i8 and i32 data, and masks
  kUnsigned,  // uint8_t ... uint64_t: wrapping arithmetic
};

struct VectorCType {
  LaneKind kind = LaneKind::kFloat;
  int bits = 32;  // of a lane
  int lanes = 1;  // N, a power of two

  friend auto operator<=>(const VectorCType&, const VectorCType&) = default;
};

// The most lanes emit-c writes in one vector (so that a shuffle or a
// contraction stays a readable size of C).
inline constexpr int64_t kMaxVectorLanes = 4096;

// The widest vector register of the targets (AVX-512's zmm), in bytes. A C
// vector wider than it lives in memory whatever the compiler does, so the
// helpers move such a vector's rows in place rather than in one value.
inline constexpr int kRegisterBytes = 64;

// The shape of a TIR vector type, and its number of lanes L.
struct VectorShape {
  ElemType elem = ElemType::kF32;
  std::vector<int64_t> dims;

  int64_t lanes() const;
  // N: the lanes of its C vector type.
  int padded() const;
  // Whether its C vector type is wider than kRegisterBytes.
  bool WiderThanRegister() const;
  // "4x4": how helpers specialised for the shape are named.
  std::string Name() const;
};

// The shape of `node`'s vector type; an error at `node` beyond
// kMaxVectorLanes.
absl::StatusOr<VectorShape> ShapeOf(const ir::Node& node);
absl::StatusOr<VectorShape> ShapeOf(const ir::Type& type,
                                    const ir::Node& where);

// The C vector type holding `shape`'s lanes: `tsl_f32x16`.
VectorCType DataType(const VectorShape& shape);
VectorCType DataType(ElemType elem, int lanes);
// Signed (masks) and unsigned lanes of `bits`, `lanes` of them.
VectorCType SignedType(int bits, int lanes);
VectorCType UnsignedType(int bits, int lanes);

// "tsl_f32x16", "tsl_i32x16", "tsl_u8x4".
std::string VectorTypeName(const VectorCType& type);
// The C scalar type of a lane: "float", "int32_t", "uint8_t".
std::string LaneCType(const VectorCType& type);
// `typedef float tsl_f32x16 __attribute__((vector_size(64)));`
std::string VectorTypeDefinition(const VectorCType& type);

// The row-major strides of the lanes of a vector of `dims`.
std::vector<int64_t> LaneStrides(const std::vector<int64_t>& dims);

// The least power of two >= lanes.
int PaddedLanes(int64_t lanes);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_VECTOR_TYPES_H_
