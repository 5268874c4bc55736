// Evaluates a compiled tensor-level function (tensor_program.h). Arrays are
// dense and shared: `(index A i)` of a rank-k array is a rank-(k-1) view of
// the same storage, and `build` packs the values of its function into a new
// array. Scalar operations are those of scalar.h, as at the loop level.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_EVALUATOR_H_
#define TESSEL_LIBS_INTERP_TENSOR_EVALUATOR_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/interp/tensor_program.h"
#include "libs/npy/host_tensor.h"

namespace tessel {
namespace tensor {

// Evaluates `function` on `args` (one per parameter, of the parameter's
// type; a scalar is a 0-d tensor) and returns one tensor per result.
absl::StatusOr<std::vector<HostTensor>> EvaluateFunction(
    const CompiledFunction& function, const std::vector<HostTensor>& args);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_EVALUATOR_H_
