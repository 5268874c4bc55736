// polysimd's generator: the CS-1-level module (formats/tir/README.md,
// "CS-1 level") that runs a kernel as its analysis (analysis.h) decided.
// The pe-program has the kernel's parameters, the computation rectangle as
// its grid, a local array per tensor a PE touches (the box hull of section
// 4.3, extended for extra instances) holding its part of the parameter,
// and per statement: a task that zeroes the local array of an output it
// accumulates into, then its task, triggered by the arrival of each element
// of the streamed input it reads or run once over local memory. A task
// decided SIMD is one call of the target's instruction with a descriptor
// per operand, its base an expression of the PE's coordinates and the
// element's indices; a task of explicit loops calls a procedure of isl's
// loops. The module starts with the CS-1 target library
// (targets/cs1/cs1.tir), so that it runs as it is.
#ifndef TESSEL_LIBS_POLYSIMD_GENERATE_H_
#define TESSEL_LIBS_POLYSIMD_GENERATE_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/placement/placement.h"
#include "libs/polysimd/analysis.h"
#include "libs/polysimd/kernel.h"

namespace tessel::polysimd {

// The module's text, read back and verified before it is returned. What
// the CS-1 level cannot say yet is an error at the placement: a
// reduction split over PEs (partial sums sent between PEs), an output that
// streams out or is kept on another PE than the one computing it, and a
// stream whose index values do not identify its elements.
absl::StatusOr<std::string> Generate(const Kernel& kernel,
                                     const placement::Placement& placement,
                                     const Analysis& analysis);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_GENERATE_H_
