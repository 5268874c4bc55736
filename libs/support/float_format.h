// IEEE 754 binary interchange formats no wider than binary64, in software:
// rounding a double to one and converting values to and from its bit
// encoding. Element types that C++ has no type for (binary16) are held as
// doubles, which hold every value of such a format exactly, and are rounded
// and stored with these functions.
#ifndef TESSEL_LIBS_SUPPORT_FLOAT_FORMAT_H_
#define TESSEL_LIBS_SUPPORT_FLOAT_FORMAT_H_

#include <cstdint>

namespace tessel {

// A binary format of `bits` bits: a sign, `bits - precision` exponent bits
// and `precision - 1` stored significand bits (precision counts the
// implicit leading bit). binary16 is {16, 11}, binary32 {32, 24}.
struct FloatFormat {
  int bits = 0;
  int precision = 0;

  int exponent_bits() const { return bits - precision; }
  int max_exponent() const { return (1 << (exponent_bits() - 1)) - 1; }
  int min_exponent() const { return 1 - max_exponent(); }
};

inline constexpr FloatFormat kBinary16{16, 11};

// `value` rounded to the nearest value of `format`, ties to even, with
// gradual underflow (subnormals) and overflow to infinity, as IEEE 754's
// default rounding gives it; zeros and infinities keep their sign and NaN
// stays NaN. The result is exact in double.
double RoundToFormat(double value, FloatFormat format);

// The largest finite value of `format`.
double MaxFinite(FloatFormat format);

// The encoding of `value`, a value of `format` (RoundToFormat's result): a
// NaN becomes the quiet NaN of its sign with no payload.
uint64_t EncodeFloat(double value, FloatFormat format);

// The value that `bits` encode in `format` (a NaN's payload is dropped).
double DecodeFloat(uint64_t bits, FloatFormat format);

}  // namespace tessel

#endif  // TESSEL_LIBS_SUPPORT_FLOAT_FORMAT_H_
