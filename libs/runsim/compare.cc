#include "libs/runsim/compare.h"

#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"

namespace tessel::runsim {
namespace {

// Enough digits to tell any two values of the type apart: for a
// significand of p bits, 1 + ceil(p log10 2) (9 for f32, 17 for f64).
std::string ValueText(const HostTensor& tensor, int64_t i) {
  const double value = tensor.GetDouble(i);
  if (!IsFloat(tensor.elem)) return absl::StrCat(static_cast<int64_t>(value));
  const int digits =
      1 + static_cast<int>(
              std::ceil(ElemInfo(tensor.elem).precision * std::log10(2.0)));
  return absl::StrFormat("%.*g", digits, value);
}

std::string ElementText(absl::string_view name,
                        const std::vector<int64_t>& shape, int64_t flat) {
  if (shape.empty()) return std::string(name);
  std::vector<int64_t> index(shape.size());
  for (size_t k = shape.size(); k-- > 0;) {
    index[k] = flat % shape[k];
    flat /= shape[k];
  }
  return absl::StrCat(name, "[", absl::StrJoin(index, ", "), "]");
}

// `3 elements within the rounding bound`: `one` or `more` as the count
// asks.
std::string WithinBound(const Comparison& comparison, absl::string_view one,
                        absl::string_view more) {
  const int64_t count = comparison.within_rounding_bound;
  return absl::StrCat(count, " ", count == 1 ? one : more,
                      " within the rounding bound");
}

}  // namespace

Tolerance DefaultTolerance(ElemType elem) {
  switch (elem) {
    case ElemType::kF16:
      return {1e-3, 1e-3};
    case ElemType::kF32:
    case ElemType::kF64:
      return {1e-5, 1e-6};
    case ElemType::kI8:
    case ElemType::kI32:
      break;
  }
  return {0.0, 0.0};
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  if (shape.empty()) return "scalar";
  return absl::StrJoin(shape, "x");
}

absl::StatusOr<Comparison> CompareTensors(
    absl::string_view name, const HostTensor& actual,
    const HostTensor& reference, const Tolerance& tolerance,
    absl::Span<const double> rounding_bounds) {
  if (actual.elem != reference.elem) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is ", ElemTypeName(actual.elem),
                     " but the reference is ", ElemTypeName(reference.elem)));
  }
  if (actual.shape != reference.shape) {
    return absl::InvalidArgumentError(absl::StrCat(
        name, " has shape ", NumpyShapeText(actual.shape),
        " but the reference has shape ", NumpyShapeText(reference.shape)));
  }
  if (!rounding_bounds.empty() &&
      static_cast<int64_t>(rounding_bounds.size()) != actual.num_elements()) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " has ", actual.num_elements(), " elements but ",
                     rounding_bounds.size(), " rounding bounds"));
  }
  Comparison result;
  const bool exact = !IsFloat(actual.elem);
  const Tolerance defaults = DefaultTolerance(actual.elem);
  const double rtol = tolerance.rtol.value_or(*defaults.rtol);
  const double atol = tolerance.atol.value_or(*defaults.atol);
  bool nan_diff = false;
  for (int64_t i = 0; i < actual.num_elements(); ++i) {
    const double a = actual.GetDouble(i);
    const double b = reference.GetDouble(i);
    double diff = 0;
    bool ok = true;
    if (std::isnan(a) || std::isnan(b)) {
      ok = std::isnan(a) && std::isnan(b);
      nan_diff |= !ok;
    } else if (a != b) {  // equal infinities fall through with diff 0
      diff = std::fabs(a - b);
      // An infinity only matches itself (atol + rtol * inf would pass it).
      const bool finite = !exact && !std::isinf(a) && !std::isinf(b);
      ok = finite && diff <= atol + rtol * std::fabs(b);
      // NaN bounds compare false: no bound holds there.
      if (finite && !ok && !rounding_bounds.empty() &&
          diff <= rounding_bounds[i]) {
        ok = true;
        ++result.within_rounding_bound;
      }
      result.max_abs_diff = std::max(result.max_abs_diff, diff);
      const double rel = b == 0 ? INFINITY : diff / std::fabs(b);
      result.max_rel_diff = std::max(result.max_rel_diff, rel);
    }
    if (!ok && result.mismatches++ == 0) result.first_mismatch = i;
  }
  if (nan_diff) {
    result.max_abs_diff = NAN;
    result.max_rel_diff = NAN;
  }
  return result;
}

std::string ComparisonLine(absl::string_view name, const HostTensor& actual,
                           const HostTensor& reference,
                           const Comparison& comparison) {
  std::string line = absl::StrCat(
      name, ": max abs diff ", comparison.max_abs_diff, ", max rel diff ",
      comparison.max_rel_diff, " (", ShapeText(actual.shape), ", ",
      ElemTypeName(actual.elem), "): ");
  if (comparison.mismatches == 0) {
    line += "ok";
    if (comparison.within_rounding_bound > 0) {
      absl::StrAppend(&line, ", ",
                      WithinBound(comparison, "element", "elements"));
    }
    return line;
  }
  const int64_t first = comparison.first_mismatch;
  absl::StrAppend(&line, "mismatch in ", comparison.mismatches, " of ",
                  actual.num_elements(), " elements, first ",
                  ElementText(name, actual.shape, first), ": ",
                  ValueText(actual, first), " vs ",
                  ValueText(reference, first));
  if (comparison.within_rounding_bound > 0) {
    absl::StrAppend(&line, " (", WithinBound(comparison, "other", "others"),
                    ")");
  }
  return line;
}

std::string SummaryLine(absl::string_view name, const HostTensor& tensor) {
  double sum = 0;
  double max_abs = 0;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    const double value = tensor.GetDouble(i);
    sum += value;
    // NaN propagates into the maximum so that it shows.
    max_abs = std::isnan(value) ? value : std::max(max_abs, std::fabs(value));
  }
  return absl::StrCat(name, ": ", ElemTypeName(tensor.elem), " ",
                      ShapeText(tensor.shape), ", sum ",
                      absl::StrFormat("%.9g", sum), ", max abs ",
                      absl::StrFormat("%.9g", max_abs));
}

}  // namespace tessel::runsim
