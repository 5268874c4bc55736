// The vectors a register tile's row is made of: whole vectors of the
// target's width, then the rest of the lane loop in narrower vectors,
// powers of two down to an SSE register's 4 lanes, so that a row of 36
// lanes is two vectors of 16 and one of 4 in one tile, which share its
// broadcasts (docs/vectorize.md, step 8).
#ifndef TESSEL_LIBS_VECTORIZE_LANE_VECTORS_H_
#define TESSEL_LIBS_VECTORIZE_LANE_VECTORS_H_

#include <cstdint>
#include <vector>

namespace tessel::vectorize {

// The fewest lanes of a vector: an SSE register of f32.
inline constexpr int64_t kNarrowestVector = 4;

struct LaneVector {
  int64_t first = 0;  // the lane loop's iteration of its first lane
  int64_t width = 0;  // its lanes
};

// The lanes of the vectors of a lane loop of `trip` iterations shorter
// than a vector: the widest power of two it fills (its rest then vectors
// of their own, narrowed again: 12 lanes are a vector of 8 and one of 4),
// at least kNarrowestVector, which a loop of fewer lanes fills in part.
int64_t NarrowWidth(int64_t trip);

// The vectors of a row of `trip` lanes in vectors of `width` lanes:
// trip / width whole ones, then the rest in narrower powers of two, the
// widest first. The last trip % kNarrowestVector lanes take none, except
// in a row shorter than kNarrowestVector, which is one partial vector of
// `width` lanes (padded or masked). With `partial_tail` (the nest's lanes
// past the loop's end may run, padded or masked), a rest of more than
// 5/8 of a vector (11-15 lanes of 16, 6-7 of 8) is one partial vector
// instead: 47^3's last 15 columns as vectors of 8 and 4 and a nest of dot
// tiles of 3 ran at 88 GFLOP/s, as one partial vector at 111; 43^3's 11
// columns at 92 and 102; but 42^3's 10 columns as a vector of 8 and dot
// tiles of 2 at 106, as one partial vector at 99 (docs/vectorize.md,
// step 8). `width` is at least 1.
std::vector<LaneVector> LaneVectors(int64_t trip, int64_t width,
                                    bool partial_tail = false);

// Whether `rest` lanes past a loop's whole vectors of `width` are one
// partial vector where LaneVectors' `partial_tail` allows it.
bool FillsPartialVector(int64_t rest, int64_t width);

// The lanes LaneVectors covers with whole vectors.
int64_t WholeLanes(int64_t trip, int64_t width);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_LANE_VECTORS_H_
