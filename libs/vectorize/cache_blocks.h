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

// The iterations of a cache block of a loop of `trip` iterations whose
// every step reads `panel_bytes` of the panel that all tiles of rows share
// (matmul: a row of B's packed panel, width * vectors elements) and
// `strided_bytes` of reads that each step reads at a stride, a line per
// element, over all tiles of rows (matmul's A stored transposed): at most
// as many as keep the panel within half of the L2 (the other half for the
// rows' strips and the tiles of C), the panel and the strided reads
// within the L2, and the strategy's `depth`; at least 1, and as even as
// the fewest blocks of that size allow (256 iterations in blocks of at
// most 227 are two of 128, not 227 and 29).
int64_t CacheBlockDepth(const Strategy& strategy, int64_t panel_bytes,
                        int64_t strided_bytes, int64_t trip);

// Whether a tensor of `bytes` (nullopt: not known, or not contiguous) that
// every tile of rows reads again is worth packing: not when it fits in
// half of the L2, where a contiguous tensor occupies every cache set alike
// and stays whatever its row stride (matmul 128 and 256 ran 3 % faster
// unpacked, docs/vectorize.md).
bool WorthPacking(const Strategy& strategy, std::optional<int64_t> bytes);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_CACHE_BLOCKS_H_
