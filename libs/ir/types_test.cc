#include "libs/ir/types.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace tessel {
namespace {

TEST(ElemTypesTest, NamesRoundTrip) {
  for (const ElemTypeInfo& info : kElemTypes) {
    EXPECT_EQ(ParseElemType(info.name), info.type);
    EXPECT_EQ(ElemTypeName(info.type), info.name);
    EXPECT_EQ(&ElemInfo(info.type), &info);
  }
  EXPECT_EQ(ParseElemType("f16"), ElemType::kF16);
  EXPECT_EQ(ParseElemType("f128"), std::nullopt);
  EXPECT_EQ(ParseElemType("index"), std::nullopt);
  EXPECT_EQ(ElemTypeNames(), "f16, f32, f64, i8 or i32");
  EXPECT_EQ(ElemTypeNames(&ElemTypeInfo::numpy_name),
            "float16, float32, float64, int8 or int32");
}

TEST(ElemTypesTest, Layouts) {
  EXPECT_EQ(ElemTypeBytes(ElemType::kF16), 2);
  EXPECT_EQ(ElemTypeBytes(ElemType::kF64), 8);
  EXPECT_EQ(ElemTypeBytes(ElemType::kI8), 1);
  EXPECT_EQ(ElemTypeCName(ElemType::kF16), "_Float16");
  EXPECT_EQ(ElemTypeCName(ElemType::kI32), "int32_t");
  EXPECT_TRUE(IsFloat(ElemType::kF16));
  EXPECT_FALSE(IsFloat(ElemType::kI8));
  EXPECT_EQ(FloatFormatOf(ElemType::kF32).precision, 24);
  EXPECT_EQ(FloatFormatOf(ElemType::kF64).exponent_bits(), 11);
  EXPECT_EQ(IntMin(ElemType::kI8), -128);
  EXPECT_EQ(IntMax(ElemType::kI8), 127);
  EXPECT_EQ(IntMin(ElemType::kI32), std::numeric_limits<int32_t>::min());
  EXPECT_EQ(IntMax(ElemType::kI32), std::numeric_limits<int32_t>::max());
}

TEST(ElemTypesTest, RoundsToEachFloatType) {
  EXPECT_EQ(RoundToFloat(ElemType::kF16, 0.1), 0.0999755859375);
  EXPECT_EQ(RoundToFloat(ElemType::kF32, 0.1), static_cast<float>(0.1));
  EXPECT_EQ(RoundToFloat(ElemType::kF64, 0.1), 0.1);
}

TEST(ElemTypesTest, FloatLiteralsFitUnlessTheyRoundToInfinity) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF32, 3.4028235e38));
  EXPECT_FALSE(FloatLiteralFits(ElemType::kF32, 1e39));
  EXPECT_FALSE(FloatLiteralFits(ElemType::kF32, -1e39));
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF64, 1e39));
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF16, 65504));
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF16, 65519));
  EXPECT_FALSE(FloatLiteralFits(ElemType::kF16, 65520));
  EXPECT_FALSE(FloatLiteralFits(ElemType::kF16, 1e5));
  // Literals that underflow fit (they are zeros or subnormals), and so do
  // the infinities and NaN written as such.
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF16, 1e-10));
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF16, -kInf));
  EXPECT_TRUE(FloatLiteralFits(ElemType::kF32, std::nan("")));
}

}  // namespace
}  // namespace tessel
