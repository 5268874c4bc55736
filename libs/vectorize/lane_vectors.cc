#include "libs/vectorize/lane_vectors.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tessel::vectorize {

int64_t NarrowWidth(int64_t trip) {
  return std::max<int64_t>(kNarrowestVector,
                           std::bit_floor(static_cast<uint64_t>(trip)));
}

bool FillsPartialVector(int64_t rest, int64_t width) {
  return 8 * rest > 5 * width && rest < width;
}

std::vector<LaneVector> LaneVectors(int64_t trip, int64_t width,
                                    bool partial_tail) {
  std::vector<LaneVector> vectors;
  int64_t first = 0;
  for (; first + width <= trip; first += width) {
    vectors.push_back({first, width});
  }
  if (partial_tail && FillsPartialVector(trip - first, width)) {
    vectors.push_back({first, width});
    return vectors;
  }
  for (int64_t narrow = std::bit_floor(static_cast<uint64_t>(width - 1));
       narrow >= kNarrowestVector; narrow /= 2) {
    if (first + narrow <= trip) {
      vectors.push_back({first, narrow});
      first += narrow;
    }
  }
  if (vectors.empty() && trip > 0) vectors.push_back({0, width});
  return vectors;
}

int64_t WholeLanes(int64_t trip, int64_t width) {
  int64_t lanes = 0;
  for (const LaneVector& vector : LaneVectors(trip, width)) {
    if (vector.first + vector.width <= trip) lanes += vector.width;
  }
  return lanes;
}

}  // namespace tessel::vectorize
