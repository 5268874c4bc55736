// Runs a compiled loop program (loop_program.h). Data lives in buffers that
// record, per element, whether it has been written: `out` parameters and
// allocations start unwritten, and reading such an element is an error, as
// is any index outside its dimension, integer division by zero, an
// out-of-range cast, reading an unset configuration field or a call that
// violates the callee's assertions. Every error names the offending node.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_LOOP_EXECUTOR_H_
#define TESSEL_LIBS_INTERP_LOOP_EXECUTOR_H_

#include <cstdint>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/interp/loop_program.h"
#include "libs/npy/host_tensor.h"

namespace tessel {
namespace loop {

// One argument of the entry procedure: `control` for a control parameter,
// `tensor` for an `in` or `inout` one (`out` parameters take nothing); the
// run copies what it reads.
struct EntryArgument {
  int64_t control = 0;
  const HostTensor* tensor = nullptr;
};

// The shape of data parameter `index` of the entry for the given control
// arguments (only those of earlier parameters are read).
absl::StatusOr<std::vector<int64_t>> EntryParamShape(
    const LoopProgram& program, size_t index,
    const std::vector<EntryArgument>& args);

// Runs the entry with `args` (one per parameter). Returns the final contents
// of the `out` and `inout` parameters, in parameter order; an element of an
// `out` parameter that the run never wrote is an error.
// Without `batching`, every loop runs iteration by iteration.
absl::StatusOr<std::vector<HostTensor>> RunEntry(
    const LoopProgram& program, const std::vector<EntryArgument>& args,
    bool batching = true);

}  // namespace loop
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_LOOP_EXECUTOR_H_
