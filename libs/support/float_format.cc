#include "libs/support/float_format.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessel {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

uint64_t Bit(int position) { return uint64_t{1} << position; }

// The exponent of the leading bit of a finite nonzero `magnitude`.
int LeadingExponent(double magnitude) {
  int exponent;  // magnitude = m * 2^exponent with m in [0.5, 1)
  std::frexp(magnitude, &exponent);
  return exponent - 1;
}

}  // namespace

double MaxFinite(FloatFormat format) {
  return std::ldexp(2.0 - std::ldexp(1.0, 1 - format.precision),
                    format.max_exponent());
}

double RoundToFormat(double value, FloatFormat format) {
  if (!std::isfinite(value) || value == 0) return value;
  const double magnitude = std::fabs(value);
  const int leading = LeadingExponent(magnitude);
  if (leading > format.max_exponent()) return std::copysign(kInfinity, value);
  // The value of the last significand bit at this magnitude; below the
  // normal range it stays that of the subnormals.
  const int quantum =
      std::max(leading, format.min_exponent()) - (format.precision - 1);
  // Both exact: scaling by a power of two within range, and the fraction
  // of a double below 2^53.
  const double scaled = std::ldexp(magnitude, -quantum);
  double whole = std::floor(scaled);
  const double fraction = scaled - whole;
  if (fraction > 0.5 || (fraction == 0.5 && std::fmod(whole, 2.0) != 0)) {
    whole += 1;
  }
  const double rounded = std::ldexp(whole, quantum);
  if (rounded > MaxFinite(format)) return std::copysign(kInfinity, value);
  return std::copysign(rounded, value);
}

uint64_t EncodeFloat(double value, FloatFormat format) {
  const int fraction_bits = format.precision - 1;
  const uint64_t sign = std::signbit(value) ? Bit(format.bits - 1) : 0;
  const uint64_t top_exponent = (Bit(format.exponent_bits()) - 1)
                                << fraction_bits;
  if (std::isnan(value)) return sign | top_exponent | Bit(fraction_bits - 1);
  if (std::isinf(value)) return sign | top_exponent;
  const double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  const int leading = LeadingExponent(magnitude);
  if (leading < format.min_exponent()) {
    // Subnormal: a zero exponent field and the significand in units of the
    // smallest subnormal.
    return sign | static_cast<uint64_t>(std::ldexp(
                      magnitude, fraction_bits - format.min_exponent()));
  }
  const auto significand =
      static_cast<uint64_t>(std::ldexp(magnitude, fraction_bits - leading));
  const auto biased = static_cast<uint64_t>(leading + format.max_exponent());
  return sign | biased << fraction_bits | (significand - Bit(fraction_bits));
}

double DecodeFloat(uint64_t bits, FloatFormat format) {
  const int fraction_bits = format.precision - 1;
  const uint64_t fraction = bits & (Bit(fraction_bits) - 1);
  const uint64_t top = Bit(format.exponent_bits()) - 1;
  const uint64_t biased = (bits >> fraction_bits) & top;
  double magnitude;
  if (biased == top) {
    magnitude =
        fraction != 0 ? std::numeric_limits<double>::quiet_NaN() : kInfinity;
  } else if (biased == 0) {
    magnitude = std::ldexp(static_cast<double>(fraction),
                           format.min_exponent() - fraction_bits);
  } else {
    magnitude = std::ldexp(
        static_cast<double>(fraction | Bit(fraction_bits)),
        static_cast<int>(biased) - format.max_exponent() - fraction_bits);
  }
  return (bits >> (format.bits - 1)) & 1 ? -magnitude : magnitude;
}

}  // namespace tessel
