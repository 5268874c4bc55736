// parallelize_loop (Exo's API): a loop marked parallel (`for-par`).
#ifndef TESSEL_LIBS_PRIMITIVES_PARALLELIZE_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_PARALLELIZE_LOOP_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Marks the loop at `loop_cursor` parallel: its iterations may run in any
// order or at once (emit-c writes an OpenMP loop; run-sim runs them in
// order, which computes the same). What the verifier proves of every
// parallel loop (libs/verify/parallel.h) is the condition: every two
// iterations commute and no two reduce one location (`+=` from two
// iterations at once is a race, which Exo's check does not see either way:
// it asks for disjoint memory). The witness is two iterations and the
// location they both touch. A primitive that later breaks the condition
// (a buffer lifted out of the loop, shared by its iterations) makes a
// procedure that does not verify, and is rejected. Returns the loop.
absl::StatusOr<ir::Cursor> ParallelizeLoop(ir::Module& module,
                                           const ir::Cursor& loop_cursor);

// parallelize_loop(loop_cursor).
PrimitiveSpec ParallelizeLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_PARALLELIZE_LOOP_H_
