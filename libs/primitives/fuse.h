// fuse (Exo): `for i: s1; for j: s2` becomes `for i: s1; s2[j -> i]`.
#ifndef TESSEL_LIBS_PRIMITIVES_FUSE_H_
#define TESSEL_LIBS_PRIMITIVES_FUSE_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Fuses the loop at `stmt1` with the loop right after it, `stmt2`. Safe
// when both bounds are proven equal at every instance (lower and upper:
// Exo compares only one, which is unsound), the second loop's bounds
// commute with the first's body, and every instance of the first body
// commutes with the instances of the second body of earlier iterations
// (which fusion moves before it): fission's condition. Returns the fused
// loop (`stmt1`); `stmt2` is forwarded to it.
absl::StatusOr<ir::Cursor> Fuse(ir::Module& module, const ir::Cursor& stmt1,
                                const ir::Cursor& stmt2);

// fuse(stmt1, stmt2): of two loops, Fuse; of two ifs, FuseIf (fuse_if.h).
PrimitiveSpec FuseSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_FUSE_H_
