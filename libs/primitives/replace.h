// replace and call_site_mem_aware_replace (Exo's API_scheduling.replace):
// a block that does what the body of a proc or instr does, for some values
// of its parameters, becomes a call of it.
#ifndef TESSEL_LIBS_PRIMITIVES_REPLACE_H_
#define TESSEL_LIBS_PRIMITIVES_REPLACE_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Replaces `block_cursor` by a call of `subproc` (a proc or instr of the
// module). The block must match the callee's body statement by statement,
// up to the names of loops, with each control expression of the body equal
// to the block's as a linear form once the callee's control parameters and
// the offsets of its windows are bound (unification modulo linear
// equalities: `(dst i j)` of a window `dst` matches `(C (+ (* 16 io) i) j)`
// with `dst` bound to `(window C (: (* 16 io) (+ (* 16 io) 16)) ...)`).
// A control parameter is bound to an expression of what is visible outside
// the block. Unlike Exo, the callee's assertions are checked at the call
// (FailedPrecondition with the first instance that violates one), and so
// is everything else the verifier checks of a call (memories, bounds of the
// windows, aliasing): a rejected replace leaves the module unchanged.
// `quiet` is Exo's flag for its diagnostics; it changes nothing here.
absl::Status Replace(ir::Module& module, const ir::BlockCursor& block_cursor,
                     const ir::Node& subproc, bool quiet = false);

// Replace, after checking first that each buffer the call would pass lives
// in the memory of the callee's parameter (an error naming both).
absl::Status CallSiteMemAwareReplace(ir::Module& module,
                                     const ir::BlockCursor& block_cursor,
                                     const ir::Node& subproc,
                                     bool quiet = false);

PrimitiveSpec ReplaceSpec();
PrimitiveSpec CallSiteMemAwareReplaceSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REPLACE_H_
