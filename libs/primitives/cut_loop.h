// Exo's cut_loop: (for i LO HI S) split at CUT into (for i LO CUT S) and
// (for i CUT HI S). CUT must lie between the bounds wherever the loop
// runs (LO <= CUT <= HI), as isl proves under the proc's assertions;
// otherwise nothing changes and the error gives a counterexample.
#ifndef TESSEL_LIBS_PRIMITIVES_CUT_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_CUT_LOOP_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Cuts `loop` at `cut` (a detached control expression of `module`, in the
// scope of the loop's bounds, cloned where used). Returns the second loop;
// cursors to `loop` point at the first.
absl::StatusOr<ir::Cursor> CutLoop(ir::Module& module, const ir::Cursor& loop,
                                   const ir::Node& cut);

// cut_loop(loop_cursor, cut_point).
PrimitiveSpec CutLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_CUT_LOOP_H_
