// Exo's divide_loop: a loop split into an outer and an inner loop of
// `quot` iterations, with the remainder handled as `tail` says.
//
//   (for i LO HI S)  with N = HI - LO  becomes
//   guard:          (for io 0 ceil(N/q) (for ii 0 q (if (< (+ (* q io) ii) N)
//   S'))) cut:            (for io 0 N/q (for ii 0 q S')) (for ii 0 N%q S'')
//   cut_and_guard:  the cut, the tail loop under (if (> N%q 0) ...)
// where S' is S with i = LO + q*io + ii and S'' with i = LO + q*(N/q) + ii.
// Without a remainder (N a multiple of q: a literal one, or proven so for
// `perfect`) there is no guard; `perfect` has no tail either, but a cut
// tail is kept when a literal N leaves none (a loop of 0 iterations, as
// Exo's cut writes N%q whatever N is), so that one schedule finds the same
// loops in a kernel at every size.
#ifndef TESSEL_LIBS_PRIMITIVES_DIVIDE_LOOP_H_
#define TESSEL_LIBS_PRIMITIVES_DIVIDE_LOOP_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

enum class TailStrategy { kGuard, kCut, kCutAndGuard };

// "guard", "cut", "cut_and_guard" (Exo's spellings).
absl::StatusOr<TailStrategy> ParseTailStrategy(absl::string_view text);

struct DividedLoop {
  ir::Cursor outer;  // the `io` loop (where cursors to the old loop point)
  ir::Cursor inner;  // the `ii` loop of the main nest
  ir::Cursor tail;   // the tail loop (cut), or its if (cut_and_guard); or none
};

// Divides `loop` (a for of `module`) by `quot` > 0 into loops named
// `outer_name` and `inner_name`, which must be fresh in the proc. With
// `perfect`, the trip count must be a multiple of `quot` wherever the loop
// runs, under the proc's assertions and the sizes' types, as isl proves:
// otherwise FailedPrecondition with a counterexample ("n = 17"). The body's
// statements move into the main nest, so cursors to them follow.
absl::StatusOr<DividedLoop> DivideLoop(ir::Module& module,
                                       const ir::Cursor& loop, int64_t quot,
                                       const std::string& outer_name,
                                       const std::string& inner_name,
                                       TailStrategy tail, bool perfect);

// divide_loop(loop_cursor, div_const, new_iters, tail="guard",
// perfect=False).
PrimitiveSpec DivideLoopSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_DIVIDE_LOOP_H_
