// fuse of two ifs (Exo's fuse, given two if statements):
// `if c1: a1 else b1; if c2: a2 else b2` becomes `if c1: a1; a2 else b1; b2`.
#ifndef TESSEL_LIBS_PRIMITIVES_FUSE_IF_H_
#define TESSEL_LIBS_PRIMITIVES_FUSE_IF_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"

namespace tessel::primitives {

// Fuses the if at `stmt1` with the if right after it, `stmt2`. Proves, with
// isl, that the two conditions hold at the same instances (the first
// instance where one holds and the other fails is the witness), and that
// the first if's branches write nothing the second condition reads (a
// configuration field), so that it still has the first's value. Branches
// that declare one name are refused. Returns the fused if (`stmt1`).
absl::StatusOr<ir::Cursor> FuseIf(ir::Module& module, const ir::Cursor& stmt1,
                                  const ir::Cursor& stmt2);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_FUSE_IF_H_
