// Software prefetches of a register tile (formats/strategy/README.md,
// `prefetch`; docs/vectorize.md, step 6). A panel that the rows of a tile
// share and that each step of its reduction reads out of sequence, rows of
// a filter 2 KiB apart, is a stride the hardware prefetchers do not
// follow: the tile's first pass over it waits on the L3 at every step.
// Where few tiles read it after that pass (vectorize.cc decides, as
// TileLoops::prefetched), each step prefetches the lines it will read a
// few steps ahead.
#ifndef TESSEL_LIBS_VECTORIZE_PREFETCH_H_
#define TESSEL_LIBS_VECTORIZE_PREFETCH_H_

#include <vector>

#include "libs/ir/node.h"
#include "libs/vectorize/kernel.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// The `(prefetch ...)` statements that head each step of the register tile
// of `stmt` (a reduce; `loops` before EmitKernel replaces them), none when
// `strategy.prefetch` is 0, there is no `loops.prefetched` or no reduction
// loop holds the tile. For each read of `loops.prefetched` that the lanes
// index along its last dimension and the rows do not index, whose step
// (the loop holding the tile) moves further than the tile reads of it per
// step, one per cache line of the tile's lanes, at the step `ahead` steps
// later: strategy.prefetch over the tile's multiply-adds per step, where
// the step loop runs longer than that.
std::vector<ir::Node*> TilePrefetches(ir::Module& module, ir::Node& stmt,
                                      const TileLoops& loops,
                                      const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_PREFETCH_H_
