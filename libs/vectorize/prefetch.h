// Software prefetches of register tiles and of packing copies
// (formats/strategy/README.md, `prefetch` and `prefetch-copies`;
// docs/vectorize.md, step 6). A panel that the rows of a tile
// share and that each step of its reduction reads out of sequence, rows of
// a filter 2 KiB apart, is a stride the hardware prefetchers do not
// follow: the tile's first pass over it waits on the L3 at every step.
// Where few tiles read it after that pass (vectorize.cc decides, as
// TileLoops::prefetched), each step prefetches the lines it will read a
// few steps ahead. A copy that packs such a panel reads it the same way,
// a row of a line or a few per step.
#ifndef TESSEL_LIBS_VECTORIZE_PREFETCH_H_
#define TESSEL_LIBS_VECTORIZE_PREFETCH_H_

#include <vector>

#include "absl/status/status.h"
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

// Heads each step of the copies of `proc` whose rows lie apart with
// prefetches of the row `strategy.prefetch_copies` steps ahead; none when
// that is 0. A copy here is a loop whose body is one loop whose body is
// one `(assign (P ...) (B ...))` of literal bounds; its rows are where the
// inner loop reads B contiguously, 4 cache lines at most, and a
// step of the outer loop moves further than a row (a filter's rows of 64
// bytes 2 KiB apart), which the outer loop runs longer than the distance.
// One `(prefetch B ...)` per cache line of the row.
absl::Status PrefetchCopies(ir::Module& module, ir::Node& proc,
                            const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_PREFETCH_H_
