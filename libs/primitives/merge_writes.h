// merge_writes (Exo): two consecutive writes of one location become one:
// `x = a; x = b` and `x += a; x = b` become `x = b`, `x = a; x += b`
// becomes `x = a + b`, and `x += a; x += b` becomes `x += a + b`.
#ifndef TESSEL_LIBS_PRIMITIVES_MERGE_WRITES_H_
#define TESSEL_LIBS_PRIMITIVES_MERGE_WRITES_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Merges the two statements of `block`, assignments or reductions of the
// same location (the same buffer at the same indices, as written). Proves
// that the second's value does not read the buffer (it would see the
// first's write, which the merged statement no longer makes first; Exo
// checks it as well, by index); two reductions merge exactly only for integers
// (`(x + a) + b` is not `x + (a + b)` in floats; Exo accepts them). The
// first value is no longer computed where the second is an assignment.
absl::Status MergeWrites(ir::Module& module, const ir::BlockCursor& block);

// merge_writes(block_cursor).
PrimitiveSpec MergeWritesSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_MERGE_WRITES_H_
