// reorder_stmts (Exo): `s1; s2` becomes `s2; s1`.
#ifndef TESSEL_LIBS_PRIMITIVES_REORDER_STMTS_H_
#define TESSEL_LIBS_PRIMITIVES_REORDER_STMTS_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Swaps the two statements of `block`. Safe (section 5.7) when they
// commute: in each iteration of the loops around them, no location one
// writes is touched by the other, and no location one reduces is read or
// written by the other (two reductions commute). Returns the block, now
// `s2; s1`.
absl::StatusOr<ir::BlockCursor> ReorderStmts(ir::Module& module,
                                             const ir::BlockCursor& block);

// reorder_stmts(block).
PrimitiveSpec ReorderStmtsSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REORDER_STMTS_H_
