#include "libs/vectorize/cache_blocks.h"

#include "gtest/gtest.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {
namespace {

TEST(CacheBlocksTest, TheSharedPanelFillsHalfTheL2) {
  Strategy strategy = *DefaultStrategy("avx512");
  // Matmul's 6 x 64 tile: a row of the panel is 64 f32, 256 bytes, and
  // 2048 of them are 512 KiB.
  EXPECT_EQ(CacheBlockDepth(strategy, 256, 0, 2048), 2048);
  EXPECT_EQ(CacheBlockDepth(strategy, 256, 0, 4096), 2048);
  // A 3 x 3 convolution's panel: 9 rows of 64 f32 per channel, at most
  // 227 channels, in even blocks.
  EXPECT_EQ(CacheBlockDepth(strategy, 9 * 256, 0, 227), 227);
  EXPECT_EQ(CacheBlockDepth(strategy, 9 * 256, 0, 256), 128);
  EXPECT_EQ(CacheBlockDepth(strategy, 9 * 256, 0, 512), 171);
  // A stored transposed at 2048: a line of each of 2040 rows per step.
  EXPECT_EQ(CacheBlockDepth(strategy, 256, 2040 * 4, 2048), 121);
  strategy.depth = 128;
  EXPECT_EQ(CacheBlockDepth(strategy, 256, 0, 2048), 128);
  EXPECT_EQ(CacheBlockDepth(strategy, 256, 0, 300), 100);
  strategy.l2 = 1024;
  EXPECT_EQ(CacheBlockDepth(strategy, 4096, 0, 7), 1);
}

TEST(CacheBlocksTest, TensorsThatFitHalfTheL2AreNotPacked) {
  Strategy strategy = *DefaultStrategy("avx512");
  EXPECT_FALSE(WorthPacking(strategy, 256 * 256 * 4));
  EXPECT_FALSE(WorthPacking(strategy, 512 * 1024));
  EXPECT_TRUE(WorthPacking(strategy, 512 * 1024 + 4));
  EXPECT_TRUE(WorthPacking(strategy, std::nullopt));
}

}  // namespace
}  // namespace tessel::vectorize
