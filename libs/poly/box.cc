#include "libs/poly/box.h"

namespace tessel::poly {
namespace {

// Bounds far from overflow: a product or sum of two values below 2^62 fits
// in 128 bits.
constexpr __int128 kLimit = __int128{1} << 62;

bool Small(__int128 value) { return value < kLimit && value > -kLimit; }

}  // namespace

std::optional<Interval> RangeOnBox(absl::Span<const int64_t> coeffs,
                                   int64_t constant,
                                   absl::Span<const int64_t> extents) {
  __int128 low = constant;
  __int128 high = constant;
  if (!Small(constant)) return std::nullopt;
  for (size_t k = 0; k < coeffs.size(); ++k) {
    if (coeffs[k] == 0) continue;
    if (extents[k] <= 0) return std::nullopt;
    // The variable's largest value, on the side where it lowers (raises)
    // the sum.
    __int128 reach = __int128{coeffs[k]} * (extents[k] - 1);
    (reach > 0 ? high : low) += reach;
    if (!Small(low) || !Small(high)) return std::nullopt;
  }
  return Interval{static_cast<int64_t>(low), static_cast<int64_t>(high)};
}

}  // namespace tessel::poly
