// Exo's shift_loop: (for i LO HI S) run from NEW_LO instead, as
// (for i NEW_LO (+ NEW_LO (- HI LO)) S[i = i + LO - NEW_LO]), the bounds
// and indices simplified. NEW_LO must be non-negative wherever the loop
// runs (Exo's condition), as isl proves; otherwise a counterexample.
#ifndef TESSEL_LIBS_PRIMITIVES_SHIFT_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_SHIFT_LOOP_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Shifts `loop` to start at `new_lo` (a detached control expression of
// `module` in the scope of the loop's bounds, cloned where used). Cursors
// to the loop and to its statements follow.
absl::Status ShiftLoop(ir::Module& module, const ir::Cursor& loop,
                       const ir::Node& new_lo);

// shift_loop(loop_cursor, new_lo).
PrimitiveSpec ShiftLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SHIFT_LOOP_H_
