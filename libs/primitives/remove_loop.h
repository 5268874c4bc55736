// remove_loop (Exo): `for i: s` becomes `s`.
#ifndef TESSEL_LIBS_PRIMITIVES_REMOVE_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_REMOVE_LOOP_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Replaces the loop at `loop` by its body. Safe (section 5.8) when the
// body does not use the loop variable and is idempotent (Shadows(a, a):
// it reads nothing it modifies and reduces nothing). A loop that may run
// no iteration becomes `if lo < hi: s`, as Exo's does; one that provably
// runs leaves the body alone. Returns the statements that replaced it.
absl::StatusOr<ir::BlockCursor> RemoveLoop(ir::Module& module,
                                           const ir::Cursor& loop);

// remove_loop(loop).
PrimitiveSpec RemoveLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REMOVE_LOOP_H_
