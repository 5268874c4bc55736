// inline (Exo's API_scheduling.inline): a call replaced by its callee's
// body, the parameters replaced by the arguments.
#ifndef TESSEL_LIBS_PRIMITIVES_INLINE_H_
#define TESSEL_LIBS_PRIMITIVES_INLINE_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Replaces the call `call_cursor` by a copy of its callee's body: control
// parameters become the argument expressions, a tensor parameter the
// buffer passed, and an access through a window parameter the access of
// the caller's buffer it denotes (a window's offsets added, its points
// put back). What the body binds is renamed to names free in the caller.
// The callee's assertions held at the call (the verifier checked them) and
// are dropped. A `(stride P k)` of a window parameter is not rewritten:
// such a callee is rejected.
absl::Status Inline(ir::Module& module, const ir::Cursor& call_cursor);

PrimitiveSpec InlineSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INLINE_H_
