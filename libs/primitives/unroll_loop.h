// Exo's unroll_loop: a loop of a literal trip count replaced by copies of
// its body, one per iteration, in order, each with the loop variable's
// value put in and simplified: (for i 0 3 S) is S[i=0] S[i=1] S[i=2].
#ifndef TESSEL_LIBS_PRIMITIVES_UNROLL_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_UNROLL_LOOP_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Unrolls `loop`, whose bounds must differ by a literal (InvalidArgument
// otherwise). Cursors to the loop then point at the first copy's first
// statement (invalid when nothing is left: no iteration or an empty body).
absl::Status UnrollLoop(ir::Module& module, const ir::Cursor& loop);

// unroll_loop(loop_cursor).
PrimitiveSpec UnrollLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_UNROLL_LOOP_H_
