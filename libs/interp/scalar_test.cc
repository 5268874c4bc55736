#include "libs/interp/scalar.h"

#include <cmath>
#include <limits>

#include "gtest/gtest.h"

namespace tessel {
namespace {

Scalar F32(float v) { return Scalar::Float(ElemType::kF32, v); }
Scalar I8(int v) { return Scalar::Int(ElemType::kI8, v); }
Scalar I32(int32_t v) { return Scalar::Int(ElemType::kI32, v); }

Scalar Apply(ArithOp op, const Scalar& a, const Scalar& b) {
  Scalar result;
  EXPECT_EQ(Arith(op, a, b, result), ScalarError::kNone);
  EXPECT_EQ(result.type, a.type);
  return result;
}

TEST(ScalarTest, F32ArithmeticRoundsToFloat) {
  Scalar sum = Apply(ArithOp::kAdd, F32(0.1f), F32(0.2f));
  EXPECT_EQ(sum.f, static_cast<double>(0.1f + 0.2f));
  EXPECT_NE(sum.f, static_cast<double>(0.1f) + static_cast<double>(0.2f));
  EXPECT_EQ(Apply(ArithOp::kDiv, F32(1), F32(3)).f,
            static_cast<double>(1.0f / 3.0f));
  EXPECT_TRUE(std::isinf(Apply(ArithOp::kDiv, F32(1), F32(0)).f));
}

TEST(ScalarTest, IntegersWrap) {
  EXPECT_EQ(Apply(ArithOp::kAdd, I8(100), I8(100)).i, -56);
  EXPECT_EQ(Apply(ArithOp::kMul, I8(-128), I8(-1)).i, -128);
  EXPECT_EQ(Apply(ArithOp::kDiv, I8(-128), I8(-1)).i, -128);
  EXPECT_EQ(Negate(I8(-128)).i, -128);
  EXPECT_EQ(Apply(ArithOp::kAdd, I32(INT32_MAX), I32(1)).i, INT32_MIN);
  EXPECT_EQ(Apply(ArithOp::kMul, I32(65536), I32(65536)).i, 0);
  EXPECT_EQ(Apply(ArithOp::kDiv, I32(INT32_MIN), I32(-1)).i, INT32_MIN);
  EXPECT_EQ(Negate(I32(INT32_MIN)).i, INT32_MIN);
  EXPECT_EQ(Apply(ArithOp::kDiv, I32(-7), I32(2)).i, -3);
}

TEST(ScalarTest, IntegerDivisionByZeroIsAnError) {
  Scalar result;
  EXPECT_EQ(Arith(ArithOp::kDiv, I32(1), I32(0), result),
            ScalarError::kDivisionByZero);
  EXPECT_EQ(Arith(ArithOp::kDiv, I8(1), I8(0), result),
            ScalarError::kDivisionByZero);
}

TEST(ScalarTest, MaxAndMinAreTheCConditionals) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(Apply(ArithOp::kMax, F32(nan), F32(1)).f));
  EXPECT_EQ(Apply(ArithOp::kMax, F32(1), F32(nan)).f, 1);
  EXPECT_TRUE(std::isnan(Apply(ArithOp::kMin, F32(nan), F32(1)).f));
  EXPECT_EQ(Apply(ArithOp::kMin, F32(1), F32(nan)).f, 1);
  // (max -0 +0) is +0 only when -0 < +0, which it is not: it keeps a.
  EXPECT_TRUE(std::signbit(Apply(ArithOp::kMax, F32(-0.0f), F32(0.0f)).f));
  EXPECT_EQ(Apply(ArithOp::kMax, I8(-3), I8(2)).i, 2);
  EXPECT_EQ(Apply(ArithOp::kMin, I32(-3), I32(2)).i, -3);
}

TEST(ScalarTest, ComparesAsC) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(Compare(CompareOp::kEq, F32(nan), F32(nan)));
  EXPECT_TRUE(Compare(CompareOp::kNe, F32(nan), F32(nan)));
  EXPECT_TRUE(Compare(CompareOp::kLe, I8(-1), I8(0)));
  EXPECT_TRUE(CompareIntegers(CompareOp::kGt, 3, 2));
}

TEST(ScalarTest, CastsAsC) {
  Scalar result;
  EXPECT_EQ(Cast(ElemType::kI32, F32(-2.9f), result), ScalarError::kNone);
  EXPECT_EQ(result.i, -2);
  EXPECT_EQ(Cast(ElemType::kI8, F32(127.9f), result), ScalarError::kNone);
  EXPECT_EQ(result.i, 127);
  EXPECT_EQ(Cast(ElemType::kI8, F32(128), result), ScalarError::kOutOfRange);
  EXPECT_EQ(Cast(ElemType::kI32, F32(std::nanf("")), result),
            ScalarError::kOutOfRange);
  EXPECT_EQ(
      Cast(ElemType::kI32, Scalar::Float(ElemType::kF64, 2147483648.0), result),
      ScalarError::kOutOfRange);
  EXPECT_EQ(Cast(ElemType::kI8, I32(300), result), ScalarError::kNone);
  EXPECT_EQ(result.i, 44);
  EXPECT_EQ(Cast(ElemType::kF32, I32(16777217), result), ScalarError::kNone);
  EXPECT_EQ(result.f, 16777216.0);
  EXPECT_EQ(Cast(ElemType::kF32, Scalar::Float(ElemType::kF64, 1e300), result),
            ScalarError::kNone);
  EXPECT_TRUE(std::isinf(result.f));
}

TEST(ScalarTest, AdoptsLiterals) {
  Scalar result;
  EXPECT_EQ(AdoptIntLiteral(200, ElemType::kI8, result), ScalarError::kNone);
  EXPECT_EQ(result.i, -56);
  EXPECT_EQ(AdoptIntLiteral(255, ElemType::kI8, result), ScalarError::kNone);
  EXPECT_EQ(result.i, -1);
  EXPECT_EQ(AdoptIntLiteral(16777217, ElemType::kF32, result),
            ScalarError::kNone);
  EXPECT_EQ(result.f, 16777216.0);
  EXPECT_EQ(AdoptIntLiteral(3, ElemType::kF64, result), ScalarError::kNone);
  EXPECT_EQ(result.f, 3.0);
  EXPECT_EQ(AdoptFloatLiteral(0.1, ElemType::kF32, result), ScalarError::kNone);
  EXPECT_EQ(result.f, static_cast<double>(0.1f));
  EXPECT_EQ(AdoptFloatLiteral(1.5, ElemType::kI32, result),
            ScalarError::kNotAnInteger);
}

TEST(ScalarTest, LoadsAndStoresElements) {
  uint8_t bytes[8] = {};
  StoreScalar(I8(-5), bytes);
  EXPECT_EQ(LoadScalar(ElemType::kI8, bytes).i, -5);
  StoreScalar(F32(1.5f), bytes);
  EXPECT_EQ(LoadScalar(ElemType::kF32, bytes).f, 1.5);
  StoreScalar(Scalar::Float(ElemType::kF64, 0.1), bytes);
  EXPECT_EQ(LoadScalar(ElemType::kF64, bytes).f, 0.1);
}

TEST(ScalarTest, ControlArithmetic) {
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorMod(-7, 2), 1);
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorMod(6, 3), 0);
  int64_t result = 0;
  EXPECT_FALSE(AddIndex(INT64_MAX, 1, result));
  EXPECT_FALSE(MulIndex(INT64_MAX, 2, result));
  EXPECT_TRUE(SubIndex(-5, 3, result));
  EXPECT_EQ(result, -8);
}

TEST(ScalarTest, PrintsValues) {
  EXPECT_EQ(ScalarText(F32(1.5f)), "1.5");
  EXPECT_EQ(ScalarText(I32(-3)), "-3");
}

}  // namespace
}  // namespace tessel
