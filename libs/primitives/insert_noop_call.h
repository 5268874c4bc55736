// insert_noop_call (Exo's API_scheduling.insert_noop_call): a call of a
// proc or instr that does nothing, inserted at a gap (Exo's uses: a
// `fence()` after an accelerator's loop, a `prefetch(x[i:i+1], 3)` before
// a read, whose C templates do what their semantic bodies do not say).
#ifndef TESSEL_LIBS_PRIMITIVES_INSERT_NOOP_CALL_H_
#define TESSEL_LIBS_PRIMITIVES_INSERT_NOOP_CALL_H_

#include "absl/status/status.h"
#include "absl/types/span.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Inserts `(call callee args...)` at `gap_cursor` (each of `args` a
// detached tree in the scope of the gap, cloned into the call). Exo
// accepts a callee whose body is `pass`; here the call must provably
// change nothing the procedure computes and never make a run fail:
// - its body, and the bodies of the procs it calls, hold only loops, ifs,
//   allocations and calls (no assignment, reduction, let, configuration
//   write or vector statement, even into its own allocations, whose values
//   could fail to compute: an integer division by zero, a read of an
//   element not written yet);
// - at the call, it touches nothing (effects::EffectsOf): no element of a
//   buffer it is passed, no configuration field, read or written (a read
//   of a field not set yet fails, as run-sim reports it); the witness is
//   the first location touched;
// - the call verifies where it is (ir::VerifyProc): as many arguments as
//   parameters, each of its parameter's kind, type and dimensions (a
//   window's extents), and the callee's assertions hold at the call
//   (Exo checks none of them).
// A rejection leaves the module unchanged.
absl::Status InsertNoopCall(ir::Module& module,
                            const ir::GapCursor& gap_cursor,
                            const ir::Node& callee,
                            absl::Span<const ir::Node* const> args);

PrimitiveSpec InsertNoopCallSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INSERT_NOOP_CALL_H_
