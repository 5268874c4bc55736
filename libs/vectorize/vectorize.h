// vectorize: loop-level procedures to the vector level (docs/vectorize.md),
// after MLIR's structured code generation (the paper's sections 3.1-3.5):
// each loop nest is tiled with libs/primitives' divide_loop and
// reorder_loops into a register tile under its reduction loops, the tile's
// partial iterations padded or peeled, and the tile written as vector
// operations (libs/vectorize/kernel.h). Legality is proven on the
// polyhedral model (libs/effects), never assumed from a kernel's shape.
#ifndef TESSEL_LIBS_VECTORIZE_VECTORIZE_H_
#define TESSEL_LIBS_VECTORIZE_VECTORIZE_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// Vectorizes every loop nest of `proc` (a verified proc of `module`) by
// `strategy`, and verifies the result. A nest whose lanes cannot fill
// whole vectors and may not be padded stays scalar (peeled); so does a
// nest of a shape vectorize does not handle, for which the result holds a
// note (`file:line:col: note: this nest stays scalar: ...`). What cannot
// be proven legal is FailedPrecondition with a `file:line:col: error:`
// message, and leaves an unspecified module.
absl::StatusOr<std::vector<std::string>> VectorizeProc(
    ir::Module& module, ir::Node& proc, const Strategy& strategy);

// InvalidArgument unless every loop the strategy's `tile` and
// `interchange` lines name is a loop of some proc of `module` (each nest
// takes the choices for the loops it has).
absl::Status CheckStrategyLoops(const ir::Module& module,
                                const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_VECTORIZE_H_
