// reorder_loops (Exo): `for i: for j: s` becomes `for j: for i: s`.
#ifndef TESSEL_LIBS_PRIMITIVES_REORDER_LOOPS_H_
#define TESSEL_LIBS_PRIMITIVES_REORDER_LOOPS_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Swaps the loop at `outer` with the one loop its body holds. Safe, as
// Exo's condition (section 5.8) says, when the inner loop's bounds do not
// depend on the outer variable, the loops' bounds commute with the body
// (the body writes no configuration field they read), and every two
// iterations whose order the swap flips ((i, j) and (i', j') with i < i'
// and j > j') commute. Returns the new outer loop (the old inner one's
// variable); `outer` is forwarded to it.
absl::StatusOr<ir::Cursor> ReorderLoops(ir::Module& module,
                                        const ir::Cursor& outer);

// reorder_loops(nested_loops).
PrimitiveSpec ReorderLoopsSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REORDER_LOOPS_H_
