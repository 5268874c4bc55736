#include "libs/vectorize/cache_blocks.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace tessel::vectorize {

int64_t CacheBlockDepth(const Strategy& strategy, int64_t panel_bytes,
                        int64_t strided_bytes, int64_t trip) {
  int64_t fits =
      std::min(strategy.l2 / 2 / std::max<int64_t>(panel_bytes, 1),
               strategy.l2 / std::max<int64_t>(panel_bytes + strided_bytes, 1));
  int64_t most = std::clamp<int64_t>(fits, 1, strategy.depth);
  if (trip <= most) return most;
  int64_t blocks = (trip + most - 1) / most;
  return (trip + blocks - 1) / blocks;
}

bool WorthPacking(const Strategy& strategy, std::optional<int64_t> bytes) {
  return !bytes.has_value() || *bytes > strategy.l2 / 2;
}

std::optional<int64_t> StreamingDepth(int64_t tile_bytes, int64_t stride_bytes,
                                      bool other_tiles, bool has_rows) {
  if (has_rows || !other_tiles || stride_bytes <= tile_bytes) {
    return std::nullopt;
  }
  return kStreamingDepth;
}

}  // namespace tessel::vectorize
