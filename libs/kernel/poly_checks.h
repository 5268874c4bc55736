// The checks of a statement that need integer sets (isl, via libs/poly):
// accesses within bounds, `=` writing each element at most once, and whether
// a statement reaches every element of its target.
#ifndef TESSEL_LIBS_KERNEL_POLY_CHECKS_H_
#define TESSEL_LIBS_KERNEL_POLY_CHECKS_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/kernel/kernel.h"
#include "libs/poly/poly.h"

namespace tessel::kernel {

// Fails, naming a domain point and the index it reaches, when `access` of
// `statement` can fall outside its tensor.
absl::Status CheckInBounds(poly::Context& ctx, const Kernel& kernel,
                           const Statement& statement, const Access& access);

// Fails, naming two domain points, when the target access of `statement`
// maps two points to the same element.
absl::Status CheckWritesOnce(poly::Context& ctx, const Kernel& kernel,
                             const Statement& statement);

// Whether every element of the target is written by some domain point.
absl::StatusOr<bool> CoversTarget(poly::Context& ctx, const Kernel& kernel,
                                  const Statement& statement);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_POLY_CHECKS_H_
