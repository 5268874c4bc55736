#include "libs/support/float_format.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gtest/gtest.h"

namespace tessel {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr FloatFormat kBinary32{32, 24};

// Equal values, or both NaN; zeros of different signs differ.
bool Same(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

TEST(FloatFormatTest, Binary16Limits) {
  EXPECT_EQ(kBinary16.exponent_bits(), 5);
  EXPECT_EQ(kBinary16.max_exponent(), 15);
  EXPECT_EQ(kBinary16.min_exponent(), -14);
  EXPECT_EQ(MaxFinite(kBinary16), 65504.0);
  EXPECT_EQ(MaxFinite(kBinary32), std::numeric_limits<float>::max());
}

TEST(FloatFormatTest, RoundsTiesToEven) {
  // Between 1 and 1 + 2^-10 the midpoint goes to the even 1; between
  // 1 + 2^-10 and 1 + 2^-9 to the even 1 + 2^-9.
  EXPECT_EQ(RoundToFormat(1 + std::ldexp(1, -11), kBinary16), 1.0);
  EXPECT_EQ(RoundToFormat(1 + 3 * std::ldexp(1, -11), kBinary16),
            1 + std::ldexp(1, -9));
  // Just above a midpoint rounds up, just below down.
  EXPECT_EQ(
      RoundToFormat(1 + std::ldexp(1, -11) + std::ldexp(1, -40), kBinary16),
      1 + std::ldexp(1, -10));
  EXPECT_EQ(
      RoundToFormat(1 + std::ldexp(1, -11) - std::ldexp(1, -40), kBinary16),
      1.0);
  EXPECT_EQ(RoundToFormat(2049, kBinary16), 2048.0);
  EXPECT_EQ(RoundToFormat(2051, kBinary16), 2052.0);
  EXPECT_EQ(RoundToFormat(-2051, kBinary16), -2052.0);
  EXPECT_EQ(RoundToFormat(0.1, kBinary16), 0.0999755859375);
}

TEST(FloatFormatTest, OverflowsToInfinity) {
  EXPECT_EQ(RoundToFormat(65504, kBinary16), 65504.0);
  // 65520 is the midpoint between 65504 and 2^16, which is "even".
  EXPECT_EQ(RoundToFormat(65519.99, kBinary16), 65504.0);
  EXPECT_EQ(RoundToFormat(65520, kBinary16), kInf);
  EXPECT_EQ(RoundToFormat(-1e300, kBinary16), -kInf);
  EXPECT_EQ(RoundToFormat(3.4028235e38, kBinary32),
            std::numeric_limits<float>::max());
  EXPECT_EQ(RoundToFormat(1e39, kBinary32), kInf);
}

TEST(FloatFormatTest, UnderflowsGradually) {
  const double tiny = std::ldexp(1, -24);  // the smallest subnormal
  EXPECT_EQ(RoundToFormat(tiny, kBinary16), tiny);
  EXPECT_EQ(RoundToFormat(3 * tiny, kBinary16), 3 * tiny);
  // Half the smallest subnormal ties to the even zero; above it rounds up.
  EXPECT_TRUE(Same(RoundToFormat(tiny / 2, kBinary16), 0.0));
  EXPECT_TRUE(Same(RoundToFormat(-tiny / 2, kBinary16), -0.0));
  EXPECT_EQ(RoundToFormat(tiny * 0.75, kBinary16), tiny);
  EXPECT_EQ(RoundToFormat(tiny * 1.5, kBinary16), 2 * tiny);
  // Subnormals keep the quantum 2^-24 up to the smallest normal 2^-14.
  EXPECT_EQ(RoundToFormat(std::ldexp(1, -14) - tiny * 0.7, kBinary16),
            std::ldexp(1, -14) - tiny);
  EXPECT_TRUE(Same(RoundToFormat(1e-300, kBinary16), 0.0));
}

TEST(FloatFormatTest, KeepsSpecialValues) {
  EXPECT_TRUE(Same(RoundToFormat(-0.0, kBinary16), -0.0));
  EXPECT_EQ(RoundToFormat(-kInf, kBinary16), -kInf);
  EXPECT_TRUE(std::isnan(RoundToFormat(NAN, kBinary16)));
}

TEST(FloatFormatTest, EncodesBinary16) {
  EXPECT_EQ(EncodeFloat(1.0, kBinary16), 0x3c00u);
  EXPECT_EQ(EncodeFloat(-2.0, kBinary16), 0xc000u);
  EXPECT_EQ(EncodeFloat(65504, kBinary16), 0x7bffu);
  EXPECT_EQ(EncodeFloat(std::ldexp(1, -24), kBinary16), 0x0001u);
  EXPECT_EQ(EncodeFloat(std::ldexp(1, -14), kBinary16), 0x0400u);
  EXPECT_EQ(EncodeFloat(-0.0, kBinary16), 0x8000u);
  EXPECT_EQ(EncodeFloat(kInf, kBinary16), 0x7c00u);
  EXPECT_EQ(EncodeFloat(NAN, kBinary16), 0x7e00u);
  EXPECT_EQ(EncodeFloat(-NAN, kBinary16), 0xfe00u);
}

TEST(FloatFormatTest, DecodesEveryBinary16Encoding) {
  for (uint64_t bits = 0; bits < 0x10000; ++bits) {
    const double value = DecodeFloat(bits, kBinary16);
    const bool nan = (bits & 0x7c00) == 0x7c00 && (bits & 0x3ff) != 0;
    ASSERT_EQ(std::isnan(value), nan) << bits;
    if (nan) continue;
    ASSERT_TRUE(Same(RoundToFormat(value, kBinary16), value)) << bits;
    ASSERT_EQ(EncodeFloat(value, kBinary16), bits) << bits;
  }
}

TEST(FloatFormatTest, Binary32AgreesWithFloat) {
  uint32_t state = 12345;
  for (int i = 0; i < 100000; ++i) {
    state = state * 1664525u + 1013904223u;
    uint64_t high = state;
    state = state * 1664525u + 1013904223u;
    uint64_t bits = high << 32 | state;
    double value;
    std::memcpy(&value, &bits, sizeof value);
    // Keep the exponent near binary32's range, subnormals included.
    int exponent;
    value = std::ldexp(std::frexp(value, &exponent),
                       static_cast<int>(high % 300) - 160);
    const float single = static_cast<float>(value);
    ASSERT_TRUE(Same(RoundToFormat(value, kBinary32), single)) << value;
    if (std::isfinite(single)) {
      uint32_t expected;
      std::memcpy(&expected, &single, sizeof expected);
      ASSERT_EQ(EncodeFloat(single, kBinary32), expected) << value;
      ASSERT_TRUE(Same(DecodeFloat(expected, kBinary32), single)) << value;
    }
  }
}

#ifdef __FLT16_MAX__
// GCC's _Float16 (libgcc's conversions, correctly rounded from double) as
// an independent check, at every midpoint between neighbouring binary16
// values, just beside it, and at the values themselves.
TEST(FloatFormatTest, Binary16AgreesWithFloat16) {
  for (uint64_t bits = 0; bits < 0x7c00; ++bits) {
    const double low = DecodeFloat(bits, kBinary16);
    const double high =
        bits + 1 < 0x7c00 ? DecodeFloat(bits + 1, kBinary16) : 65536.0;
    const double middle = (low + high) / 2;
    for (double value : {low, middle, std::nextafter(middle, 0.0),
                         std::nextafter(middle, kInf)}) {
      for (double signed_value : {value, -value}) {
        const double expected = static_cast<_Float16>(signed_value);
        ASSERT_TRUE(Same(RoundToFormat(signed_value, kBinary16), expected))
            << signed_value;
      }
    }
  }
}
#endif

}  // namespace
}  // namespace tessel
