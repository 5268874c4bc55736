#include "libs/emitc/vector_types.h"

#include "gtest/gtest.h"

namespace tessel::emitc {
namespace {

TEST(VectorTypesTest, LanesArePaddedToAPowerOfTwo) {
  EXPECT_EQ(PaddedLanes(1), 1);
  EXPECT_EQ(PaddedLanes(5), 8);
  EXPECT_EQ(PaddedLanes(16), 16);
  EXPECT_EQ(PaddedLanes(17), 32);
  VectorShape shape{ElemType::kF32, {2, 3}};
  EXPECT_EQ(shape.lanes(), 6);
  EXPECT_EQ(shape.padded(), 8);
  EXPECT_EQ(shape.Name(), "2x3");
}

TEST(VectorTypesTest, LaneStridesAreRowMajor) {
  EXPECT_EQ(LaneStrides({4, 8}), (std::vector<int64_t>{8, 1}));
  EXPECT_EQ(LaneStrides({2, 3, 5}), (std::vector<int64_t>{15, 5, 1}));
  EXPECT_EQ(LaneStrides({7}), (std::vector<int64_t>{1}));
}

TEST(VectorTypesTest, TypesAreNamedAndDefinedByTheirLanes) {
  VectorCType data = DataType(VectorShape{ElemType::kF32, {4, 4}});
  EXPECT_EQ(VectorTypeName(data), "tsl_f32x16");
  EXPECT_EQ(VectorTypeDefinition(data),
            "typedef float tsl_f32x16 __attribute__((vector_size(64)));\n");
  EXPECT_EQ(VectorTypeDefinition(DataType(ElemType::kF16, 8)),
            "typedef _Float16 tsl_f16x8 __attribute__((vector_size(16)));\n");
  EXPECT_EQ(VectorTypeName(DataType(ElemType::kI8, 4)), "tsl_i8x4");
  EXPECT_EQ(LaneCType(DataType(ElemType::kF64, 2)), "double");
  EXPECT_EQ(VectorTypeDefinition(SignedType(64, 4)),
            "typedef int64_t tsl_i64x4 __attribute__((vector_size(32)));\n");
  EXPECT_EQ(VectorTypeDefinition(UnsignedType(8, 16)),
            "typedef uint8_t tsl_u8x16 __attribute__((vector_size(16)));\n");
}

}  // namespace
}  // namespace tessel::emitc
