// polysimd's generator: the CS-1-level module (formats/tir/README.md,
// "CS-1 level") that runs a kernel as its analysis (analysis.h) decided.
// The pe-program has the kernel's parameters, the computation rectangle as
// its grid, a local array per tensor a PE touches (the box hull of section
// 4.3, extended for extra instances) holding its part of the parameter,
// and per statement: a task that zeroes the local array of an output it
// accumulates into, then its task, triggered by the arrival of each element
// of the streamed input it reads (on the PEs whose instances read it) or
// run once over local memory. A task decided by the box hull is one call
// of the target's instruction with a descriptor per operand, its base an
// expression of the PE's coordinates and the element's indices; by the
// base case or size enumeration, a procedure choosing a call by size; else
// a procedure of isl's loops. A reduction split over PEs keeps partial
// sums, `(partial add)`; an output whose box hull's extra instances write
// inside it is computed apart and its PE's elements copied into a kept
// array by a last task. The module starts with the CS-1 target library
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
// the CS-1 level cannot say is an error at the placement: a PE's part of an
// output that is no box, an element kept on a PE that computes none of it,
// an assignment split over PEs, and index values that do not tell apart
// the elements a PE reads.
absl::StatusOr<std::string> Generate(const Kernel& kernel,
                                     const placement::Placement& placement,
                                     const Analysis& analysis);

}  // namespace tessel::polysimd

#endif  // TESSEL_LIBS_POLYSIMD_GENERATE_H_
