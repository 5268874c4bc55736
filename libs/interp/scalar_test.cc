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

Scalar F16(double v) { return Scalar::Float(ElemType::kF16, v); }

TEST(ScalarTest, F16ArithmeticRoundsToF16TiesToEven) {
  const double ulp1 = std::ldexp(1, -10);  // of f16 values in [1, 2)
  // 1 + ulp1 / 2 is a tie: it goes to the even 1; 1 + 3 ulp1 / 2 to 1 + 2
  // ulp1.
  EXPECT_EQ(Apply(ArithOp::kAdd, F16(1), F16(ulp1 / 2)).f, 1.0);
  EXPECT_EQ(Apply(ArithOp::kAdd, F16(1 + ulp1), F16(ulp1 / 2)).f, 1 + 2 * ulp1);
  EXPECT_EQ(Apply(ArithOp::kAdd, F16(2048), F16(1)).f, 2048.0);
  EXPECT_EQ(Apply(ArithOp::kAdd, F16(2048), F16(3)).f, 2052.0);
  EXPECT_EQ(Apply(ArithOp::kSub, F16(-2048), F16(3)).f, -2052.0);
  EXPECT_EQ(Apply(ArithOp::kDiv, F16(1), F16(3)).f, 0.333251953125);
  EXPECT_EQ(Apply(ArithOp::kMul, F16(0.1), F16(0.1)).f, 0.0099945068359375);
}

TEST(ScalarTest, F16OverflowsToInfinity) {
  EXPECT_EQ(Apply(ArithOp::kAdd, F16(65504), F16(15)).f, 65504.0);
  // 65520 is the tie between 65504 and 65536, which is even: infinity.
  EXPECT_TRUE(std::isinf(Apply(ArithOp::kAdd, F16(65504), F16(16)).f));
  EXPECT_TRUE(std::isinf(Apply(ArithOp::kMul, F16(256), F16(256)).f));
  EXPECT_EQ(Apply(ArithOp::kMul, F16(-256), F16(255)).f, -65280.0);
  EXPECT_TRUE(std::isinf(F16(1e5).f));
  EXPECT_EQ(F16(1e5).f, -F16(-1e5).f);
}

TEST(ScalarTest, F16UnderflowsGradually) {
  const double tiny = std::ldexp(1, -24);  // the smallest f16 subnormal
  EXPECT_EQ(Apply(ArithOp::kMul, F16(tiny), F16(3)).f, 3 * tiny);
  EXPECT_EQ(Apply(ArithOp::kDiv, F16(std::ldexp(1, -14)), F16(2)).f,
            std::ldexp(1, -15));
  // Half the smallest subnormal ties to the even zero, and keeps its sign.
  Scalar half = Apply(ArithOp::kDiv, F16(-tiny), F16(2));
  EXPECT_EQ(half.f, 0.0);
  EXPECT_TRUE(std::signbit(half.f));
  EXPECT_EQ(Apply(ArithOp::kDiv, F16(3 * tiny), F16(2)).f, 2 * tiny);
  EXPECT_EQ(Apply(ArithOp::kSub, F16(std::ldexp(1, -14)), F16(tiny)).f,
            std::ldexp(1, -14) - tiny);
}

// Computed in float and rounded once to f16 is the correctly rounded
// result: the exact one (the sum, difference and product of two f16 values
// are exact in double) or, for a quotient, the double one rounded again,
// which is innocuous from 53 bits.
TEST(ScalarTest, F16ArithmeticIsCorrectlyRounded) {
  uint64_t state = 1;
  auto draw = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    // A random finite f16 value of any magnitude, subnormals included.
    uint64_t bits = (state >> 33) & 0xffff;
    if ((bits & 0x7c00) == 0x7c00) bits &= 0xbfff;
    return F16(DecodeFloat(bits, kBinary16));
  };
  for (int i = 0; i < 200000; ++i) {
    const Scalar a = draw();
    const Scalar b = draw();
    const double sum = a.f + b.f, difference = a.f - b.f, product = a.f * b.f;
    EXPECT_EQ(Apply(ArithOp::kAdd, a, b).f, RoundToFormat(sum, kBinary16));
    EXPECT_EQ(Apply(ArithOp::kSub, a, b).f,
              RoundToFormat(difference, kBinary16));
    EXPECT_EQ(Apply(ArithOp::kMul, a, b).f, RoundToFormat(product, kBinary16));
    if (b.f != 0) {
      EXPECT_EQ(Apply(ArithOp::kDiv, a, b).f,
                RoundToFormat(a.f / b.f, kBinary16));
    }
  }
}

TEST(ScalarTest, F16Casts) {
  Scalar result;
  // From f64 in one rounding: through f32 it would be the tie 1 + 2^-11,
  // which goes to 1.
  const double above_tie = 1 + std::ldexp(1, -11) + std::ldexp(1, -40);
  EXPECT_EQ(
      Cast(ElemType::kF16, Scalar::Float(ElemType::kF64, above_tie), result),
      ScalarError::kNone);
  EXPECT_EQ(result.type, ElemType::kF16);
  EXPECT_EQ(result.f, 1 + std::ldexp(1, -10));
  EXPECT_EQ(Cast(ElemType::kF16, I32(2049), result), ScalarError::kNone);
  EXPECT_EQ(result.f, 2048.0);
  EXPECT_EQ(Cast(ElemType::kF16, I32(100000), result), ScalarError::kNone);
  EXPECT_TRUE(std::isinf(result.f));
  EXPECT_EQ(Cast(ElemType::kF32, F16(0.1), result), ScalarError::kNone);
  EXPECT_EQ(result.f, 0.0999755859375);
  EXPECT_EQ(Cast(ElemType::kI32, F16(-65504), result), ScalarError::kNone);
  EXPECT_EQ(result.i, -65504);
  EXPECT_EQ(Cast(ElemType::kI8, F16(-128.5), result), ScalarError::kNone);
  EXPECT_EQ(result.i, -128);
  EXPECT_EQ(Cast(ElemType::kI8, F16(200), result), ScalarError::kOutOfRange);
  EXPECT_EQ(Cast(ElemType::kI32, F16(1e5), result), ScalarError::kOutOfRange);
  EXPECT_EQ(AdoptIntLiteral(70000, ElemType::kF16, result), ScalarError::kNone);
  EXPECT_TRUE(std::isinf(result.f));
  EXPECT_EQ(AdoptFloatLiteral(0.1, ElemType::kF16, result), ScalarError::kNone);
  EXPECT_EQ(result.f, 0.0999755859375);
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
  // binary16, little-endian: 1.5 is 0x3e00, -0.0 0x8000, -inf 0xfc00.
  StoreScalar(F16(1.5), bytes);
  EXPECT_EQ(bytes[0], 0x00);
  EXPECT_EQ(bytes[1], 0x3e);
  EXPECT_EQ(LoadScalar(ElemType::kF16, bytes).f, 1.5);
  StoreScalar(F16(-0.0), bytes);
  EXPECT_EQ(bytes[1], 0x80);
  EXPECT_TRUE(std::signbit(LoadScalar(ElemType::kF16, bytes).f));
  StoreScalar(F16(-1e6), bytes);
  EXPECT_EQ(bytes[1], 0xfc);
  EXPECT_EQ(LoadScalar(ElemType::kF16, bytes).f, -F16(1e6).f);
  StoreScalar(F16(std::ldexp(1, -24)), bytes);
  EXPECT_EQ(bytes[0], 0x01);
  EXPECT_EQ(LoadScalar(ElemType::kF16, bytes).f, std::ldexp(1, -24));
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
  EXPECT_EQ(ScalarText(F16(0.1)), "0.0999755859375");
}

}  // namespace
}  // namespace tessel
