// The unimodular change of variables that section 5.2 of Verdoolaege et al.
// (IMPACT 2020) leaves out ("not currently considered"): after variable
// compression, an instance set that is no box in its variables may be one,
// or have a smaller fixed-size box hull, in others. A parallelogram
// { [i, j] : 0 <= i < N and i <= j < i + K } is the box 0 <= i < N,
// 0 <= j' < K in i and j' = j - i. The new variables are d independent
// normals of the set's constraints whose matrix T is unimodular (its
// Hermite normal form has a unit diagonal, isl_mat_left_hermite), so that
// y = T z is a bijection of the integer points; isl computes the image of
// the set, its inverse and every hull.
#ifndef TESSEL_LIBS_POLYSIMD_UNIMODULAR_H_
#define TESSEL_LIBS_POLYSIMD_UNIMODULAR_H_

#include <cstdint>
#include <optional>
#include <string>

#include "isl/cpp.h"

namespace tessel::polysimd {

struct Unimodular {
  isl::multi_aff forward;  // [z...] -> [y...], y = T z
  isl::multi_aff inverse;  // [y...] -> [z...]
  isl::set transformed;    // the set in the new variables
  // Why it was chosen: the image is a box, or its fixed-size box hull has
  // fewer points.
  std::string reason;
};

// Whether `set` is the box its minimum and maximum per dimension bound,
// for the symbolic constants `known` allows.
bool IsBoxOfItsBounds(const isl::set& set, const isl::set& known);

// The unimodular change of variables of `set` (of anonymous variables,
// without existentially quantified ones in the constraints it uses), or
// none: none when the set is a box already or has fewer than two
// dimensions; else the first transformation from its constraints' normals
// whose image is a box, or else the one whose image has the fixed-size
// box hull of fewest points, if fewer than the set's own (or the set has
// none).
std::optional<Unimodular> FindUnimodular(const isl::set& set,
                                         const isl::set& known);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_UNIMODULAR_H_
