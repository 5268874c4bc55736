// Questions about affine functions on boxes (every variable between 0 and
// an extent) that need no isl: the range of such a function is found at
// the box's corners, in time linear in the number of variables. Callers
// answer the usual case of a check this way and ask isl (with its
// counterexamples) only when the answer is not already settled, so that a
// kernel of rank 300 is checked in linear time, not isl's exponential one.
#ifndef TESSEL_LIBS_POLY_BOX_H_
#define TESSEL_LIBS_POLY_BOX_H_

#include <cstdint>
#include <optional>

#include "absl/types/span.h"

namespace tessel::poly {

struct Interval {
  int64_t low = 0;
  int64_t high = 0;
};

// The least and greatest value of constant + sum(coeffs[k] * x[k]) for
// integers 0 <= x[k] < extents[k] (one extent per coefficient; a variable
// with coefficient 0 may have any extent). Nullopt when an extent of a
// variable the function reads is not positive (the box is empty) or a
// bound does not fit in 62 bits.
std::optional<Interval> RangeOnBox(absl::Span<const int64_t> coeffs,
                                   int64_t constant,
                                   absl::Span<const int64_t> extents);

}  // namespace tessel::poly

#endif  // TESSEL_LIBS_POLY_BOX_H_
