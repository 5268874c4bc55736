// join_loops (Exo): `for i in lo..mid: s; for i in mid..hi: s` becomes
// `for i in lo..hi: s`.
#ifndef TESSEL_LIBS_PRIMITIVES_JOIN_LOOPS_H_
#define TESSEL_LIBS_PRIMITIVES_JOIN_LOOPS_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Joins the loop at `loop1` with the loop right after it, `loop2`, when
// their bodies are the same (alpha-equivalent, each loop's variable the
// other's) and the iterations they run, one after the other, are those of
// one loop from loop1's lower bound to loop2's upper bound, at every
// instance (isl): loop1's upper bound equals loop2's lower bound, and
// neither loop runs backwards past the other (Exo checks only the first,
// so `for i in 5..3` then `for i in 3..9` would become `for i in 5..9`).
// loop2's bounds must commute with loop1's body, which now runs after
// them. Returns the joined loop (`loop1`); `loop2` is forwarded to it.
absl::StatusOr<ir::Cursor> JoinLoops(ir::Module& module,
                                     const ir::Cursor& loop1,
                                     const ir::Cursor& loop2);

// join_loops(loop1_cursor, loop2_cursor).
PrimitiveSpec JoinLoopsSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_JOIN_LOOPS_H_
