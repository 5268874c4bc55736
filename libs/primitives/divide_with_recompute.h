// divide_with_recompute (Exo): `for i in 0..hi: s` becomes
// `for io in 0..outer_hi: for ii in 0..stride + (hi - outer_hi * stride):
//  s[i -> stride * io + ii]`, overlapping tiles that run some iterations
// more than once.
#ifndef TESSEL_LIBS_PRIMITIVES_DIVIDE_WITH_RECOMPUTE_H_
#define TESSEL_LIBS_PRIMITIVES_DIVIDE_WITH_RECOMPUTE_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Divides the loop at `loop_cursor` (from 0) into `outer_hi` tiles of
// `outer_stride` iterations, each extended by the remainder so that the
// tiles cover the loop: an iteration may run twice, and out of its order.
// Proves that this computes the same: the body is idempotent (no instance
// reads what one writes, so `y[i] = y[i + 1]` re-run after y[i + 1]
// changed is refused) and reduces nothing, its instances of different
// iterations commute, outer_hi * outer_stride does not exceed hi, and
// outer_hi is positive wherever the loop runs (0 tiles would run nothing).
// The witness of each failure is the instances or the sizes where it
// fails.
absl::Status DivideWithRecompute(ir::Module& module,
                                 const ir::Cursor& loop_cursor,
                                 const ir::Node& outer_hi,
                                 int64_t outer_stride,
                                 const std::vector<std::string>& new_iters);

// divide_with_recompute(loop_cursor, outer_hi, outer_stride, new_iters).
PrimitiveSpec DivideWithRecomputeSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_DIVIDE_WITH_RECOMPUTE_H_
