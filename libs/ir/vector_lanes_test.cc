#include "libs/ir/vector_lanes.h"

#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::ir {
namespace {

using ::testing::ElementsAre;

TEST(VectorLanesTest, TransposeOf2x3) {
  // Lane (i, j) of the 3x2 result is lane (j, i) of the 2x3 source.
  EXPECT_THAT(TransposeLanes({2, 3}, {1, 0}), ElementsAre(0, 3, 1, 4, 2, 5));
  EXPECT_THAT(TransposeLanes({2, 3}, {0, 1}), ElementsAre(0, 1, 2, 3, 4, 5));
}

TEST(VectorLanesTest, TransposeOf3DMovesTheMiddleDimension) {
  // (2 2 2) with (list 0 2 1): lane (a, b, c) is source lane (a, c, b).
  EXPECT_THAT(TransposeLanes({2, 2, 2}, {0, 2, 1}),
              ElementsAre(0, 2, 1, 3, 4, 6, 5, 7));
}

TEST(VectorLanesTest, StridedSliceTakesLeadingDimensions) {
  // Rows 1 and 3 of a 4x2 vector.
  EXPECT_THAT(StridedSliceLanes({4, 2}, {1}, {2}, {2}), ElementsAre(2, 3, 6, 7));
  // Lanes 1, 3, 5 of 8.
  EXPECT_THAT(StridedSliceLanes({8}, {1}, {3}, {2}), ElementsAre(1, 3, 5));
}

TEST(VectorLanesTest, InsertedSliceAlignsTrailingDimensions) {
  // A vector of 2 into row 1 of a 2x4 vector, at columns 1 and 3.
  EXPECT_THAT(InsertedSliceLanes({2}, {2, 4}, {1, 1}, {2}),
              ElementsAre(-1, -1, -1, -1, -1, 0, -1, 1));
}

TEST(VectorLanesTest, MultiReductionStepsInRowMajorOrder) {
  // Rows of a 2x3 vector summed: step r takes column r of each row.
  EXPECT_THAT(MultiReductionLanes({2, 3}, {1}),
              ElementsAre(ElementsAre(0, 3), ElementsAre(1, 4),
                          ElementsAre(2, 5)));
  // Columns: step r takes row r.
  EXPECT_THAT(MultiReductionLanes({2, 3}, {0}),
              ElementsAre(ElementsAre(0, 1, 2), ElementsAre(3, 4, 5)));
  EXPECT_THAT(ReducedShape({2, 3, 4}, {0, 2}), ElementsAre(3));
}

}  // namespace
}  // namespace tessel::ir
