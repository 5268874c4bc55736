#include "libs/vectorize/cache_blocks.h"

#include <algorithm>
#include <cstdint>
#include <optional>

namespace tessel::vectorize {

int64_t CacheBlockDepth(const Strategy& strategy, int64_t step_bytes,
                        int64_t trip) {
  int64_t fits = strategy.l2 / 2 / std::max<int64_t>(step_bytes, 1);
  int64_t most = std::clamp<int64_t>(fits, 1, strategy.depth);
  if (trip <= most) return most;
  int64_t blocks = (trip + most - 1) / most;
  return (trip + blocks - 1) / blocks;
}

bool WorthPacking(const Strategy& strategy, std::optional<int64_t> bytes) {
  return !bytes.has_value() || *bytes > strategy.l2 / 2;
}

}  // namespace tessel::vectorize
