// Numeric comparison of outputs for `run-sim --compare` and `--expect`, and
// the one-line summaries run-sim prints otherwise.
//
// Floats pass NumPy's allclose rule |a - b| <= atol + rtol * |b|, where b is
// the reference; NaN equals NaN at the same position and mismatches any
// number; infinities equal infinities of the same sign. Integers must be
// equal. The default tolerances depend on the element type (see
// DefaultTolerance). Where run-sim knows how far two correct evaluations may
// round apart (rounding_bound.h), a float element within that distance
// passes too.
#ifndef TESSEL_LIBS_RUNSIM_COMPARE_H_
#define TESSEL_LIBS_RUNSIM_COMPARE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/npy/host_tensor.h"

namespace tessel::runsim {

// The tolerances of float comparisons (--rtol, --atol); one left unset is
// the compared element type's default.
struct Tolerance {
  std::optional<double> rtol;
  std::optional<double> atol;
};

// The defaults, both set: rtol 1e-5 and atol 1e-6 for f32 and f64 (NumPy's
// rtol); for f16, whose 11-bit significands tell values apart only to about
// 1e-3, rtol 1e-3 (about one unit in the last place: 2^-10 at the bottom of
// a binade) and atol 1e-3 (one unit in the last place of values near 1).
// Integers compare exactly.
Tolerance DefaultTolerance(ElemType elem);

struct Comparison {
  double max_abs_diff = 0;  // NaN when a NaN meets a number
  double max_rel_diff = 0;  // |a - b| / |b|; infinite where b is 0 and a not
  int64_t mismatches = 0;
  int64_t first_mismatch = -1;  // row-major element index
  // Elements outside the tolerance that pass within their rounding bound.
  int64_t within_rounding_bound = 0;
};

// Compares `actual` with `reference`, which must have the same element type
// and shape (else an error naming `name`). `rounding_bounds`, when given,
// has a distance per element (NaN: none) within which a float element
// passes wherever the tolerance puts it.
absl::StatusOr<Comparison> CompareTensors(
    absl::string_view name, const HostTensor& actual,
    const HostTensor& reference, const Tolerance& tolerance,
    absl::Span<const double> rounding_bounds = {});

// `y: max abs diff 0, max rel diff 0 (2x14x14, f32): ok` (with `, 3
// elements within the rounding bound` when some passed by it), or with
// `: mismatch in 3 of 392 elements, first y[0, 1, 2]: 1.5 vs 1.25`.
std::string ComparisonLine(absl::string_view name, const HostTensor& actual,
                           const HostTensor& reference,
                           const Comparison& comparison);

// `y: f32 2x14x14, sum 12.5, max abs 3.25`.
std::string SummaryLine(absl::string_view name, const HostTensor& tensor);

// `2x14x14`, or `scalar` for a 0-d tensor.
std::string ShapeText(const std::vector<int64_t>& shape);

}  // namespace tessel::runsim

#endif  // TESSEL_LIBS_RUNSIM_COMPARE_H_
