#include "libs/vectorize/cache_blocks.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace tessel::vectorize {

int64_t CacheBlockDepth(const Strategy& strategy, const StepBytes& step,
                        int64_t trip) {
  auto steps_in = [](int64_t cache_bytes, int64_t step_bytes) {
    return cache_bytes / std::max<int64_t>(step_bytes, 1);
  };
  const int64_t fits =
      std::min({steps_in(strategy.l2 / 2, step.panel),
                steps_in(strategy.l2, step.panel + step.strided),
                steps_in(strategy.l3 / 2, step.packed_rows)});
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
