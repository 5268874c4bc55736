// The register tile of a nest, as vector operations (the paper's
// sections 3.3 and 3.5): once tiling has put the row loop and the lane
// loop innermost, their iterations become unrolled n-D vector operations
// on the target's width. Reads become transfer-reads (those the lanes do
// not index, broadcasts), each read once per step and shared; a
// contraction's multiply-add becomes outer products lowered to FMAs (or a
// product and a sum); the accumulators of a reduction are hoisted out of
// the reduction loops: their transfers are loop-invariant there.
#ifndef TESSEL_LIBS_VECTORIZE_KERNEL_H_
#define TESSEL_LIBS_VECTORIZE_KERNEL_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/vectorize/nest.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// Where a tiled nest's register tile lies.
struct TileLoops {
  ir::Node* rows = nullptr;  // the unrolled row loop (or none)
  ir::Node* lanes = nullptr;  // the lane loop, innermost
  // The window loop around the rows (sliding_window.h), unrolled into the
  // tile as its taps, or none.
  ir::Node* window = nullptr;
  // The outermost of the reduction loops between the tile loops and the
  // register tile (or the register tile's outer loop when there are none):
  // the accumulators live around it.
  ir::Node* hoist = nullptr;
  // A fill of the elements the tile reduces into (fill.h), alone in loops
  // of the rows' and lanes' trips just before `hoist`, or none: the
  // accumulators start from its value, and its loops are removed.
  ir::Node* fill = nullptr;
  // The tensor of the panel whose lines each step prefetches ahead
  // (prefetch.h), or none.
  const ir::Node* prefetched = nullptr;
  // Whether the lanes past the lane loop's end may run, padded or masked:
  // LaneVectors' `partial_tail`.
  bool partial_tail = false;
};

// Replaces the register tile of `stmt` (its rows and lanes loops) by
// vector operations: per row, the vectors LaneVectors(lanes' trip,
// `strategy.width`, `loops.partial_tail`) gives (whole ones of the width,
// then narrower ones or a partial one, padded or masked). The
// accumulators start from the fill's value (TileLoops::fill), else from
// the elements they reduce into.
absl::Status EmitKernel(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                        const NestPlan& plan, const TileLoops& loops,
                        const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_KERNEL_H_
