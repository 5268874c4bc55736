#include "libs/vectorize/lane_vectors.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace tessel::vectorize {
namespace {

std::vector<int64_t> Widths(int64_t trip, int64_t width) {
  std::vector<int64_t> widths;
  int64_t next = 0;
  for (const LaneVector& vector : LaneVectors(trip, width)) {
    EXPECT_EQ(vector.first, next) << trip;
    next += vector.width;
    widths.push_back(vector.width);
  }
  return widths;
}

TEST(LaneVectorsTest, WholeVectorsThenNarrowerPowersOfTwo) {
  EXPECT_EQ(Widths(64, 16), (std::vector<int64_t>{16, 16, 16, 16}));
  EXPECT_EQ(Widths(36, 16), (std::vector<int64_t>{16, 16, 4}));
  EXPECT_EQ(Widths(28, 16), (std::vector<int64_t>{16, 8, 4}));
  EXPECT_EQ(Widths(12, 8), (std::vector<int64_t>{8, 4}));
  // A width that is not a power of two: narrower powers of two below it.
  EXPECT_EQ(Widths(25, 12), (std::vector<int64_t>{12, 12}));
  EXPECT_EQ(Widths(20, 12), (std::vector<int64_t>{12, 8}));
}

TEST(LaneVectorsTest, TheLastLanesOfFewerThanFourTakeNone) {
  EXPECT_EQ(Widths(38, 16), (std::vector<int64_t>{16, 16, 4}));
  EXPECT_EQ(WholeLanes(38, 16), 36);
  EXPECT_EQ(WholeLanes(100, 16), 100);
}

TEST(LaneVectorsTest, ALoopShorterThanFourIsOnePartialVector) {
  EXPECT_EQ(Widths(3, 4), (std::vector<int64_t>{4}));
  EXPECT_EQ(WholeLanes(3, 4), 0);
  EXPECT_EQ(Widths(3, 1), (std::vector<int64_t>{1, 1, 1}));
  EXPECT_EQ(WholeLanes(3, 1), 3);
}

TEST(LaneVectorsTest, APartialTailOfMoreThanFiveEighthsIsOneVector) {
  const std::vector<LaneVector> vectors = LaneVectors(47, 16, true);
  ASSERT_EQ(vectors.size(), 3u);
  EXPECT_EQ(vectors[2].first, 32);
  EXPECT_EQ(vectors[2].width, 16);
  EXPECT_EQ(WholeLanes(47, 16), 44);
  EXPECT_EQ(LaneVectors(43, 16, true).size(), 3u);
  EXPECT_EQ(LaneVectors(15, 16, true).size(), 1u);
  EXPECT_EQ(LaneVectors(7, 8, true).size(), 1u);
  // 10 lanes of 16, 5 of 8: narrower vectors (and what they leave).
  EXPECT_EQ(LaneVectors(42, 16, true).size(), 3u);
  EXPECT_EQ(LaneVectors(42, 16, true)[2].width, 8);
  EXPECT_EQ(LaneVectors(13, 8, true)[1].width, 4);
  // Without it, narrower vectors whatever the rest.
  EXPECT_EQ(LaneVectors(47, 16).size(), 4u);
}

TEST(LaneVectorsTest, NarrowWidthIsTheWidestPowerOfTwoFilled) {
  EXPECT_EQ(NarrowWidth(12), 8);
  EXPECT_EQ(NarrowWidth(4), 4);
  EXPECT_EQ(NarrowWidth(2), 4);
}

}  // namespace
}  // namespace tessel::vectorize
