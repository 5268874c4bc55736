// insert_prefetch (beyond Exo): a `(prefetch A I...)` hint (formats/tir,
// "Statements") at a gap. Exo's schedules prefetch through
// insert_noop_call of an instruction with an empty body, whose window
// must lie in the buffer; a hint may name an element past the end (a
// loop's last steps prefetch beyond it: the SGEMM's next panel of B from
// its last one), which only a statement that is no access can say.
#ifndef TESSEL_LIBS_PRIMITIVES_INSERT_PREFETCH_H_
#define TESSEL_LIBS_PRIMITIVES_INSERT_PREFETCH_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Inserts `(prefetch A I...)` at `gap_cursor` for `element`, a detached
// tree `A[I...]` (a read of one element: an index per dimension, no
// interval) in the scope of the gap. Nothing to prove: the statement
// reads and writes nothing (run-sim skips it, effects see no access);
// the verifier checks the tensor (addressable by C: not in a register
// memory) and that the indices are integers, not their bounds. A
// rejection leaves the module unchanged.
absl::Status InsertPrefetch(ir::Module& module,
                            const ir::GapCursor& gap_cursor,
                            const ir::Node& element);

PrimitiveSpec InsertPrefetchSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INSERT_PREFETCH_H_
