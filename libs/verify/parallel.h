// The parallel loops of a proc (`for-par`, Node::is_parallel): each must
// compute what the sequential loop computes in any order of its
// iterations, and with them run at once (emit-c writes an OpenMP loop).
#ifndef TESSEL_LIBS_VERIFY_PARALLEL_H_
#define TESSEL_LIBS_VERIFY_PARALLEL_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// Every two iterations of each parallel loop of `proc` (a verified,
// typed proc or instr) commute (Exo's commute condition, libs/effects, on
// the instances of its body in different iterations), and no two
// iterations reduce one location: `+=` into one location from two
// iterations at once is a race in C, whatever order it stands in (atomic
// updates are not supported). Buffers allocated in the body are each
// iteration's own: they must be in @DRAM or a register memory (another
// memory's C alloc template, a `static` array, may be one buffer for all). A failure is located at the loop, with the witness:
// two iterations and the location they both touch.
absl::Status CheckParallelLoops(const Node& proc);

// The condition for one loop (`loop`, a For of a verified, typed proc,
// parallel or not), unlocated: FailedPrecondition with the alloc that
// iterations would share or the witness of two iterations that are not
// independent, also when the analysis cannot answer (control expressions
// it cannot model), which is no proof.
absl::Status CheckParallelLoop(const Node& loop);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_PARALLEL_H_
