#include "libs/vectorize/cache_blocks.h"

#include <optional>

#include "gtest/gtest.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {
namespace {

TEST(CacheBlocksTest, TheSharedPanelFillsHalfTheL2) {
  Strategy strategy = *DefaultStrategy("avx512");
  // Matmul's 6 x 64 tile: a row of the panel is 64 f32, 256 bytes, and
  // 2048 of them are 512 KiB.
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 256}, 2048), 2048);
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 256}, 4096), 2048);
  // A 3 x 3 convolution's panel: 9 rows of 64 f32 per channel, at most
  // 227 channels, in even blocks.
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 9 * 256}, 227), 227);
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 9 * 256}, 256), 128);
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 9 * 256}, 512), 171);
  // A stored transposed at 2048: a line of each of 2040 rows per step.
  EXPECT_EQ(
      CacheBlockDepth(strategy, {.panel = 256, .strided = 2040 * 4}, 2048),
      121);
  // A packed by tiles of rows: 2048 rows of it per step, 8 KiB, within
  // half of AVX2's L3 share of 16 MiB: blocks of 1024; 1024 rows of it
  // are not blocked.
  Strategy avx2 = *DefaultStrategy("avx2");
  EXPECT_EQ(CacheBlockDepth(avx2, {.panel = 64, .packed_rows = 2048 * 4}, 2048),
            1024);
  EXPECT_EQ(CacheBlockDepth(avx2, {.panel = 64, .packed_rows = 1024 * 4}, 1024),
            2048);
  EXPECT_EQ(
      CacheBlockDepth(strategy, {.panel = 256, .packed_rows = 2048 * 4}, 2048),
      2048);
  strategy.depth = 128;
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 256}, 2048), 128);
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 256}, 300), 100);
  strategy.l2 = 1024;
  EXPECT_EQ(CacheBlockDepth(strategy, {.panel = 4096}, 7), 1);
}

TEST(CacheBlocksTest, TensorsThatFitHalfTheL2AreNotPacked) {
  Strategy strategy = *DefaultStrategy("avx512");
  EXPECT_FALSE(WorthPacking(strategy, 256 * 256 * 4));
  EXPECT_FALSE(WorthPacking(strategy, 512 * 1024));
  EXPECT_TRUE(WorthPacking(strategy, 512 * 1024 + 4));
  EXPECT_TRUE(WorthPacking(strategy, std::nullopt));
}

TEST(CacheBlocksTest, ATileWithoutRowsThatReadsPartOfEachRowStreams) {
  // ColRed2D at 1024: a 64-lane tile, 256 bytes of each 4 KiB row.
  EXPECT_EQ(StreamingDepth(256, 4096, true, false), kStreamingDepth);
  EXPECT_EQ(StreamingDepth(256, 260, true, false), kStreamingDepth);
}

TEST(CacheBlocksTest, RowsOrASingleTileKeepTheCacheBlock) {
  // Matmul's tile has rows, whose accumulators stay across k.
  EXPECT_EQ(StreamingDepth(256, 4096, true, true), std::nullopt);
  // A tile of all 48 lanes reads each row whole: the loop streams.
  EXPECT_EQ(StreamingDepth(192, 192, false, false), std::nullopt);
  // The only tile of 16 lanes, whose loop steps over rows that another
  // reduction loop reads (colsum3's b, with i inside it).
  EXPECT_EQ(StreamingDepth(64, 256, false, false), std::nullopt);
  // No read that the loop steps through.
  EXPECT_EQ(StreamingDepth(256, 0, true, false), std::nullopt);
}

}  // namespace
}  // namespace tessel::vectorize
