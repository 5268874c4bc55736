// The tensor level lowered to the loop level's compiled form
// (loop_program.h), so that one executor runs every level: a `build`
// becomes a loop writing each element of its array (straight into the
// array that needs it, when it is part of a larger one or a result), an
// `ifold` a loop updating its accumulator, `app` a value computed once and
// named, `index` a read or a window, an access pattern a statement that
// evaluates it (access_evaluator.h), and scalar terms the expressions of
// the loop level, which compute exactly what the tensor level defines
// (docs/run-sim.md, "Tensor level"). Terms are evaluated in the order the
// tensor level evaluates them, so that the first error met is the same, in
// that level's words. The loops it makes are planned as any (loop_plan.h):
// a build of scalars or an ifold of a scalar sum runs a batch at a time.
// Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_LOWERING_H_
#define TESSEL_LIBS_INTERP_TENSOR_LOWERING_H_

#include <memory>

#include "absl/status/statusor.h"
#include "libs/interp/loop_program.h"
#include "libs/interp/tensor_program.h"

namespace tessel {
namespace tensor {

// A program whose entry takes the function's parameters (`in`) and then
// its results (`out`), in order. `function` must outlive it.
absl::StatusOr<std::unique_ptr<loop::LoopProgram>> LowerFunction(
    const CompiledFunction& function);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_LOWERING_H_
