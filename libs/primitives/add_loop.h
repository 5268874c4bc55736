// add_loop (Exo): a block wrapped in a new loop `for iter_name in 0..hi`.
#ifndef TESSEL_LIBS_PRIMITIVES_ADD_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_ADD_LOOP_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Wraps `block` in `for iter_name in 0..hi` (`hi` a detached control
// expression of the block's scope, cloned). The loop must provably run
// at least once. Without `guard` the block must be idempotent (section
// 5.8's loop removal read backwards: Shadows(a, a)); with it, the body
// is `if iter_name == 0: block`, which runs it once. `iter_name` must be
// a fresh name. Returns the new loop.
absl::StatusOr<ir::Cursor> AddLoop(ir::Module& module,
                                   const ir::BlockCursor& block,
                                   const std::string& iter_name,
                                   const ir::Node& hi, bool guard = false);

// add_loop(block, iter_name, hi_expr, guard=False).
PrimitiveSpec AddLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_ADD_LOOP_H_
