// Exo's eliminate_dead_code: an if whose condition holds (fails) wherever
// it runs replaced by its then-branch (its else-branch, or nothing), and a
// loop that never iterates deleted, as isl proves under the proc's
// assertions and the enclosing loops and branches.
#ifndef TESSEL_LIBS_PRIMITIVES_ELIMINATE_DEAD_CODE_H_
#define TESSEL_LIBS_PRIMITIVES_ELIMINATE_DEAD_CODE_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Eliminates the dead part of `stmt` (an if or a for). A statement with
// nothing provably dead is FailedPrecondition, with a point where each
// part runs; any other statement is InvalidArgument.
absl::Status EliminateDeadCode(ir::Module& module, const ir::Cursor& stmt);

// eliminate_dead_code(stmt_cursor).
PrimitiveSpec EliminateDeadCodeSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_ELIMINATE_DEAD_CODE_H_
