#include "libs/vectorize/tile_shape.h"

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

TEST(TileShapeTest, CountsAccumulatorsAndReadVectors) {
  EXPECT_EQ(TileRegisters(kMatmul, 6, 4), 28);
  EXPECT_EQ(TileRegisters(kDepthwise, 7, 2), 30);
}

TEST(TileShapeTest, LongRowLoopsKeepTheStrategysTile) {
  for (int64_t trip : {7, 56, 64, 100, 256, 512, 1024, 2048}) {
    TileShape shape = ChooseTileShape(Avx512(), kMatmul, trip);
    EXPECT_EQ(shape.rows, 7) << trip;
    EXPECT_EQ(shape.vectors, 4) << trip;
  }
  for (int64_t trip : {6, 56, 64, 100, 256, 512, 1024, 2048}) {
    EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, trip).rows, 6) << trip;
  }
}

TEST(TileShapeTest, ShortRowLoopsGetBalancedTiles) {
  // 7 rows as one tile of 7 (28 accumulators and 4 vectors of B), not 6 + 1.
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, 7).rows, 7);
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, 14).rows, 7);
  // 28 rows: 4 tiles of 7 save nothing.
  EXPECT_EQ(ChooseTileShape(SixRows(), kMatmul, 28).rows, 6);
  // A loop shorter than a tile is one tile.
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, 4).rows, 4);
  EXPECT_EQ(ChooseTileShape(Avx512(), kMatmul, 1).rows, 1);
}

TEST(TileShapeTest, NeverExceedsTheRegisters) {
  for (const TileReads& reads : {kMatmul, kDepthwise}) {
    for (int64_t trip = 1; trip <= 300; ++trip) {
      TileShape shape = ChooseTileShape(Avx512(), reads, trip);
      EXPECT_LE(TileRegisters(reads, shape.rows, shape.vectors), 32) << trip;
      EXPECT_LE(shape.rows, trip);
    }
  }
}

TEST(TileShapeTest, RowsReadingTheirOwnVectorsTakeFewerVectors) {
  // 6 x 4 would need 24 accumulators, 24 input vectors and 4 of the filter.
  TileShape shape = ChooseTileShape(Avx512(), kDepthwise, 14);
  EXPECT_EQ(shape.vectors, 2);
  EXPECT_EQ(shape.rows, 7);
}

TEST(TileShapeTest, Avx2HasHalfTheRegisters) {
  Strategy avx2 = *DefaultStrategy("avx2");
  TileShape shape = ChooseTileShape(avx2, kMatmul, 512);
  EXPECT_EQ(shape.rows, 6);
  EXPECT_EQ(shape.vectors, 2);
  EXPECT_EQ(ChooseTileShape(avx2, kMatmul, 7).rows, 7);
  EXPECT_EQ(ChooseTileShape(avx2, kDepthwise, 14).vectors, 1);
}

TEST(TileShapeTest, FixedShapeIsTheStrategys) {
  Strategy strategy = Avx512();
  strategy.fit = false;
  strategy.rows = 8;
  TileShape shape = ChooseTileShape(strategy, kDepthwise, 7);
  EXPECT_EQ(shape.rows, 8);
  EXPECT_EQ(shape.vectors, 4);
}

TEST(TileShapeTest, NoRowLoopKeepsTheFittedVectors) {
  TileShape shape = ChooseTileShape(Avx512(), kDepthwise, 0);
  EXPECT_EQ(shape.vectors, 2);
}

}  // namespace
}  // namespace tessel::vectorize
