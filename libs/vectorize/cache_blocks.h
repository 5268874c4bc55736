// Cache blocking of a register-tiled nest, sized from the strategy's cache
// (formats/strategy/README.md, `depth`, `l2`): how many steps of the cache
// block's loop the tiles of rows run between two visits of their
// accumulators, and which tensors are worth packing.
#ifndef TESSEL_LIBS_VECTORIZE_CACHE_BLOCKS_H_
#define TESSEL_LIBS_VECTORIZE_CACHE_BLOCKS_H_

#include <cstdint>
#include <optional>

#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// What each step of a cache block's loop reads.
struct StepBytes {
  // Of the panel that all tiles of rows share (matmul: a row of B's
  // packed panel, width * vectors elements).
  int64_t panel = 0;
  // Of reads at a stride, a line per element, over all tiles of rows
  // (matmul's A stored transposed, read in place).
  int64_t strided = 0;
  // Of a read packed by tiles of rows, over all of them (matmul's A
  // packed): each tile of lanes reads that strip of the block again.
  int64_t packed_rows = 0;
};

// The iterations of a cache block of a loop of `trip` iterations whose
// every step reads `step`: at most as many as keep the panel within half
// of the L2 (the other half for the rows' strips and the tiles of C), the
// panel and the strided reads within the L2, the packed rows within half
// of the L3 (the other half for what streams past it: B's rows, the
// tiles of C), and the strategy's `depth`; at least 1, and as even as
// the fewest blocks of that size allow (256 iterations in blocks of at
// most 227 are two of 128, not 227 and 29).
int64_t CacheBlockDepth(const Strategy& strategy, const StepBytes& step,
                        int64_t trip);

// Whether a tensor of `bytes` (nullopt: not known, or not contiguous) that
// every tile of rows reads again is worth packing: not when it fits in
// half of the L2, where a contiguous tensor occupies every cache set alike
// and stays whatever its row stride (matmul 128 and 256 ran 3 % faster
// unpacked, docs/vectorize.md).
bool WorthPacking(const Strategy& strategy, std::optional<int64_t> bytes);

// The iterations of a streaming cache block: a register tile of lanes
// without rows (a column sum, y[j] += A[i, j]) reads `tile_bytes` of each
// step of its reduction loop, whose steps are `stride_bytes` apart. When
// `other_tiles` of lanes read the rest of each step's row, a tile running
// the whole reduction loop reads a line per row at that stride, which no
// prefetcher follows and, at a power-of-two stride, all in one L1 set;
// blocks of kStreamingDepth steps with the tiles of lanes inside read
// that many rows from end to end, and load and store the accumulators
// (one row of the output, in L1) once per block. nullopt: the nest has
// rows (accumulators that stay across the reduction), or its tile is the
// only one, or the steps are no farther apart than the tile's reads;
// CacheBlockDepth's block holds.
std::optional<int64_t> StreamingDepth(int64_t tile_bytes, int64_t stride_bytes,
                                      bool other_tiles, bool has_rows);

// Rows per streaming block: ColRed2D at 1024 x 1024 ran at 0.95-0.99 of
// the scalar loops' C with 1, 1.00-1.07 with 2, 0.91-1.02 with 3,
// 0.88-0.92 with 4 and 0.3-0.4 with 16 (docs/vectorize.md, "Memory-bound
// kernels"): two rows halve the accumulators' loads and stores per read
// and stay two streams.
inline constexpr int64_t kStreamingDepth = 2;

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_CACHE_BLOCKS_H_
