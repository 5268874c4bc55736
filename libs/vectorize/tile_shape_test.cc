#include "libs/vectorize/tile_shape.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "gtest/gtest.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {
namespace {

Strategy Avx512() { return *DefaultStrategy("avx512"); }

// AVX-512 with a preferred tile of 6 rows, which 7 rows fill better where
// the row loop is short.
Strategy SixRows() {
  Strategy strategy = Avx512();
  strategy.rows = 6;
  return strategy;
}

// Matmul: B's vectors shared, A broadcast from memory.
constexpr TileReads kMatmul{.shared = 1, .own = 0};
// A depthwise convolution: its filter shared, each row's input its own.
constexpr TileReads kDepthwise{.shared = 1, .own = 1};
// A lane loop of many vectors (1024 lanes of AVX-512).
constexpr int64_t kLongLanes = 64;

// A tile's rows and vectors, compared at once: `RowsByVectors(shape) ==
// RowsByVectors(7, 2)` for a tile of 7 rows x 2 vectors.
std::pair<int64_t, int64_t> RowsByVectors(const TileShape& shape) {
  return {shape.rows, shape.vectors};
}
std::pair<int64_t, int64_t> RowsByVectors(int64_t rows, int64_t vectors) {
  return {rows, vectors};
}

TEST(TileShapeTest, CountsAccumulatorsAndReadVectors) {
  EXPECT_EQ(TileRegisters(kMatmul, 6, 4), 28);
  EXPECT_EQ(TileRegisters(kDepthwise, 7, 2), 30);
}

TEST(TileShapeTest, LongRowLoopsKeepTheStrategysTile) {
  for (int64_t trip : {7, 56, 256, 2048}) {
    TileShape shape = ChooseTileShape(Avx512(), kMatmul, kLongLanes, trip);
    EXPECT_EQ(RowsByVectors(shape), RowsByVectors(7, 4)) << trip;
    EXPECT_EQ(shape.row_block, 0) << trip;
  }
  for (int64_t trip : {6, 64, 100, 256, 1024}) {
    TileShape shape = ChooseTileShape(SixRows(), kMatmul, kLongLanes, trip);
    EXPECT_EQ(shape.rows, 6) << trip;
    EXPECT_EQ(shape.row_block, 0) << trip;
  }
}

TEST(TileShapeTest, AShortLastTileBecomesTilesOfOneRowFewer) {
  struct Case {
    int64_t trip;
    int64_t rows;
    int64_t row_block;
  };
  const Case cases[] = {
      // 10 tiles of 7, then a nest of 30 rows: 5 tiles of 6.
      {100, 7, 70},
      {30, 6, 0},
      // The larger block first: 6 tiles of 6, then 4 of 7.
      {64, 6, 36},
      // No such tiles: 7 and 2.
      {9, 7, 0},
  };
  for (const Case& c : cases) {
    TileShape shape = ChooseTileShape(Avx512(), kMatmul, kLongLanes, c.trip);
    EXPECT_EQ(shape.rows, c.rows) << c.trip;
    EXPECT_EQ(shape.row_block, c.row_block) << c.trip;
  }
  // Tiles of 4 rows would be load-bound: a tile widened to 5 vectors of 5
  // rows (81 x 80) keeps its last row a tile of its own.
  TileShape wide = ChooseTileShape(Avx512(), kMatmul, 5, 81);
  EXPECT_EQ(wide.vectors, 5);
  EXPECT_EQ(wide.rows, 5);
  EXPECT_EQ(wide.row_block, 0);
}

// What vectorize does with a shape: a block of `row_block` rows in tiles of
// `rows`, the rest a nest of its own with a shape of its own; returns the
// smallest tile.
int64_t SmallestTile(const Strategy& strategy, int64_t trip) {
  TileShape shape = ChooseTileShape(strategy, kMatmul, kLongLanes, trip);
  if (shape.row_block == 0) {
    return trip % shape.rows == 0 ? std::min(shape.rows, trip)
                                  : trip % shape.rows;
  }
  EXPECT_EQ(shape.row_block % shape.rows, 0) << trip;
  EXPECT_GT(2 * shape.row_block, trip) << trip;
  return std::min(shape.rows, SmallestTile(strategy, trip - shape.row_block));
}

TEST(TileShapeTest, TilesOfTwoSizesLeaveNoShortTile) {
  for (const Strategy& strategy : {Avx512(), SixRows()}) {
    for (int64_t trip = 3; trip <= 3000; ++trip) {
      int64_t smallest = SmallestTile(strategy, trip);
      // Only loops no sum of the two tile sizes covers keep a short one.
      if (trip >= strategy.rows * (strategy.rows - 1)) {
        EXPECT_GE(smallest, 3) << strategy.rows << " rows, trip " << trip;
      }
    }
  }
}

TEST(TileShapeTest, ShortRowLoopsGetBalancedTiles) {
  // 7 rows as one tile of 7 (28 accumulators and 4 vectors of B), not 6 + 1.
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, kLongLanes, 7).rows, 7);
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, kLongLanes, 14).rows, 7);
  // 28 rows: 4 tiles of 7 save nothing.
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, kLongLanes, 28).rows, 6);
  // A loop shorter than a tile is one tile.
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, kLongLanes, 4).rows, 4);
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, kLongLanes, 1).rows, 1);
}

TEST(TileShapeTest, NeverExceedsTheRegisters) {
  for (const TileReads& reads : {kMatmul, kDepthwise}) {
    for (int64_t lanes :
         {int64_t{1}, int64_t{4}, int64_t{5}, int64_t{6}, kLongLanes}) {
      for (int64_t trip = 1; trip <= 300; ++trip) {
        TileShape shape = ChooseTileShape(Avx512(), reads, lanes, trip);
        EXPECT_LE(TileRegisters(reads, shape.rows, shape.vectors), 32) << trip;
        EXPECT_LE(shape.rows, trip);
      }
    }
  }
}

TEST(TileShapeTest, ALaneLoopOneVectorLongerIsOneTileOfFiveRows) {
  // 80 lanes: 5 x 5 (30 registers), not 7 x 4 and 7 x 1.
  EXPECT_EQ(RowsByVectors(ChooseTileShape(Avx512(), kMatmul, 5, 80)),
            RowsByVectors(5, 5));
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, 5, 80).rows, 5);
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, 5, 3).rows, 3);
  // 100 lanes are 7 vectors: a tile of 7 would hold 3 rows.
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, 7, 100).vectors, 4);
  // As many vectors as the strategy's: its tile.
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, 4, 100).rows, 7);
  // Rows reading their own vectors, or AVX-2's 16 registers, hold too few.
  EXPECT_EQ(ChooseTileShape(Avx512(), kDepthwise, 3, 80).vectors, 2);
  EXPECT_EQ(ChooseTileShape(*DefaultStrategy("avx2"), kMatmul, 3, 80).vectors,
            2);
}

TEST(TileShapeTest, RowsReadingTheirOwnVectorsTakeFewerVectors) {
  // 6 x 4 would need 24 accumulators, 24 input vectors and 4 of the filter.
  EXPECT_EQ(
      RowsByVectors(ChooseTileShape(Avx512(), kDepthwise, kLongLanes, 14)),
      RowsByVectors(7, 2));
}

TEST(TileShapeTest, Avx2HasHalfTheRegisters) {
  Strategy avx2 = *DefaultStrategy("avx2");
  EXPECT_EQ(RowsByVectors(ChooseTileShape(avx2, kMatmul, kLongLanes, 512)),
            RowsByVectors(6, 2));
  EXPECT_EQ(ChooseTileShape(avx2, kMatmul, kLongLanes, 7).rows, 7);
}

TEST(TileShapeTest, OwnReadsLeavingTooFewAccumulatorsAreMemoryOperands) {
  // AVX2: 6 x 2 with its input vectors as registers needs 26 of 16; 6 x 1
  // keeps 6 accumulators, too few for the FMAs' latency, so the inputs are
  // read from memory and 6 x 2 (12 accumulators, 2 filter vectors) fits.
  Strategy avx2 = *DefaultStrategy("avx2");
  EXPECT_EQ(RowsByVectors(ChooseTileShape(avx2, kDepthwise, kLongLanes, 14)),
            RowsByVectors(7, 2));
  EXPECT_EQ(ChooseTileShape(avx2, kDepthwise, kLongLanes, 512).rows, 6);
  // AVX-512's 7 x 2 keeps 14 accumulators with them: unchanged.
  EXPECT_EQ(ChooseTileShape(Avx512(), kDepthwise, kLongLanes, 512).vectors, 2);
  // Enough accumulators with fewer rows: the inputs stay registers.
  Strategy rows2 = Avx512();
  rows2.rows = 2;
  EXPECT_EQ(ChooseTileShape(rows2, kDepthwise, kLongLanes, 512).vectors, 4);
}

TEST(TileShapeTest, FixedShapeIsTheStrategys) {
  Strategy strategy = Avx512();
  strategy.fit = false;
  strategy.rows = 8;
  EXPECT_EQ(RowsByVectors(ChooseTileShape(strategy, kDepthwise, kLongLanes, 7)),
            RowsByVectors(8, 4));
}

TEST(TileShapeTest, NoRowLoopKeepsTheFittedVectors) {
  TileShape shape = ChooseTileShape(Avx512(), kDepthwise, kLongLanes, 0);
  EXPECT_EQ(shape.vectors, 2);
}

}  // namespace
}  // namespace tessel::vectorize
