#include "libs/vectorize/strategy.h"

#include <string>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tessel::vectorize {
namespace {

using ::testing::HasSubstr;

TEST(StrategyTest, TargetsHaveTheirWidths) {
  EXPECT_EQ(DefaultStrategy("avx512")->width, 16);
  EXPECT_EQ(DefaultStrategy("avx2")->width, 8);
  EXPECT_EQ(DefaultStrategy("avx512")->contraction, Contraction::kFma);
  EXPECT_EQ(DefaultStrategy("sse").status().message(),
            "unknown target 'sse' (targets: avx512, avx2)");
}

TEST(StrategyTest, AFileChangesTheFieldsItNames) {
  auto strategy = ParseStrategy(
      "# a comment\n\nrows 4   # trailing\ntail peel\ncontraction mul-add\n"
      "lowering outer-product\n",
      "s.strategy", *DefaultStrategy("avx2"));
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->rows, 4);
  EXPECT_EQ(strategy->width, 8);
  EXPECT_EQ(strategy->vectors, 2);
  EXPECT_EQ(strategy->tail, Tail::kPeel);
  EXPECT_EQ(strategy->contraction, Contraction::kMulAdd);
  EXPECT_EQ(strategy->lowering, Lowering::kOuterProduct);
  EXPECT_EQ(PrintStrategy(*strategy),
            "width 8\nvectors 2\nrows 4\nregisters 16\nshape fit\n"
            "depth 1073741824\ntail peel\n"
            "contraction mul-add\nlowering outer-product\npack auto\n"
            "pack-reads 3\npack-taps 256\npack-whole 1048576\nwindow 1\n"
            "l2 1048576\nl3 16777216\nprefetch 448\nprefetch-copies 16\n"
            "nontemporal 524288\n"
            "dot 2\n");
}

TEST(StrategyTest, DotTakesZeroOrAPowerOfTwo) {
  auto strategy = ParseStrategy("dot 0\n", "s", *DefaultStrategy("avx512"));
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->dot, 0);
  EXPECT_EQ(DefaultStrategy("avx512")->dot, 4);
  auto three = ParseStrategy("dot 3\n", "s", *DefaultStrategy("avx512"));
  EXPECT_THAT(
      three.status().message(),
      HasSubstr("s:1:1: error: 'dot' takes 0 or a power of two up to 64"));
}

TEST(StrategyTest, ReadsTheRegistersAndTheShape) {
  auto strategy = ParseStrategy("registers 16\nshape fixed\n", "s",
                                *DefaultStrategy("avx512"));
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->registers, 16);
  EXPECT_FALSE(strategy->fit);
  EXPECT_EQ(DefaultStrategy("avx512")->registers, 32);
  EXPECT_TRUE(DefaultStrategy("avx512")->fit);
  auto bad = ParseStrategy("shape tall\n", "s", Strategy{});
  EXPECT_EQ(bad.status().message(),
            "s:1:1: error: 'shape' is 'fit' or 'fixed', not 'tall'");
}

TEST(StrategyTest, PrintedStrategiesReadBack) {
  Strategy strategy = *DefaultStrategy("avx512");
  auto read = ParseStrategy(PrintStrategy(strategy), "p", Strategy{.width = 1});
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(PrintStrategy(*read), PrintStrategy(strategy));
}

TEST(StrategyTest, ErrorsNameTheLine) {
  Strategy base;
  EXPECT_EQ(ParseStrategy("width 8\nwidth\n", "s", base).status().message(),
            "s:2:1: error: a line is 'KEY VALUE' (or a # comment)");
  EXPECT_EQ(ParseStrategy("vectors 65", "s", base).status().message(),
            "s:1:1: error: 'vectors' takes an integer from 1 to 64, not '65'");
  EXPECT_EQ(ParseStrategy("width x", "s", base).status().message(),
            "s:1:1: error: 'width' takes an integer from 1 to 64, not 'x'");
  EXPECT_EQ(ParseStrategy("contraction dot", "s", base).status().message(),
            "s:1:1: error: 'contraction' is 'fma' or 'mul-add', not 'dot'");
  EXPECT_EQ(ParseStrategy("lowering dot", "s", base).status().message(),
            "s:1:1: error: 'lowering' is 'contract', 'outer-product' or "
            "'fma', not 'dot'");
  // A contract rounds its products and sums apart: only with mul-add,
  // whichever line comes first.
  EXPECT_EQ(
      ParseStrategy("# fused\nlowering contract", "s", base).status().message(),
      "s:2:1: error: 'lowering contract' needs 'contraction mul-add' (a "
      "contract rounds its products and sums apart, an fma once)");
  EXPECT_EQ(ParseStrategy("lowering contract\ncontraction mul-add", "s", base)
                ->lowering,
            Lowering::kContract);
  auto contract =
      ParseStrategy("contraction mul-add\nlowering contract", "s", base);
  ASSERT_TRUE(contract.ok()) << contract.status();
  EXPECT_EQ(contract->lowering, Lowering::kContract);
  // It prints back as it reads.
  EXPECT_EQ(ParseStrategy(PrintStrategy(*contract), "s", base)->lowering,
            Lowering::kContract);
  EXPECT_EQ(ParseStrategy("tail cut", "s", base).status().message(),
            "s:1:1: error: 'tail' is 'pad', 'peel' or 'mask', not 'cut'");
  EXPECT_EQ(ParseStrategy("l2 0", "s", base).status().message(),
            "s:1:1: error: 'l2' takes an integer from 1 to 1099511627776, "
            "not '0'");
  EXPECT_EQ(ParseStrategy("l2 32768", "s", base)->l2, 32768);
  EXPECT_EQ(ParseStrategy("l3 8388608", "s", base)->l3, 8388608);
  EXPECT_EQ(ParseStrategy("l3 x", "s", base).status().message(),
            "s:1:1: error: 'l3' takes an integer from 1 to 1099511627776, "
            "not 'x'");
  EXPECT_EQ(ParseStrategy("window 0", "s", base).status().message(),
            "s:1:1: error: 'window' takes an integer from 1 to 64, not '0'");
  EXPECT_EQ(ParseStrategy("prefetch -1", "s", base).status().message(),
            "s:1:1: error: 'prefetch' takes an integer from 0 to 1048576, "
            "not '-1'");
  // 0 turns prefetching off.
  EXPECT_EQ(ParseStrategy("prefetch 0", "s", *DefaultStrategy("avx512"))
                ->prefetch,
            0);
  EXPECT_EQ(DefaultStrategy("avx2")->prefetch, 448);
}

TEST(StrategyTest, WindowIsTheMostTapsUnrolled) {
  auto strategy = ParseStrategy("window 3\n", "s", Strategy{});
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->window, 3);
  EXPECT_NE(PrintStrategy(*strategy).find("window 3\n"), std::string::npos);
}

TEST(StrategyTest, LoopsTakeTilesAndAnInterchange) {
  auto strategy = ParseStrategy(
      "tile j 256\ntile k 64\ntile j 128\ninterchange k i j\n", "s",
      Strategy{});
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  // The last tile of a loop holds, in the place of its last line.
  EXPECT_EQ(strategy->tiles,
            (std::vector<std::pair<std::string, int64_t>>{{"k", 64},
                                                          {"j", 128}}));
  EXPECT_EQ(strategy->interchange, (std::vector<std::string>{"k", "i", "j"}));
  EXPECT_NE(PrintStrategy(*strategy).find(
                "dot 0\ntile k 64\ntile j 128\ninterchange k i j\n"),
            std::string::npos)
      << PrintStrategy(*strategy);
  auto read = ParseStrategy(PrintStrategy(*strategy), "p", Strategy{});
  ASSERT_TRUE(read.ok()) << read.status();
  EXPECT_EQ(PrintStrategy(*read), PrintStrategy(*strategy));
}

TEST(StrategyTest, LoopErrorsNameTheLine) {
  Strategy base;
  EXPECT_EQ(ParseStrategy("tile j", "s", base).status().message(),
            "s:1:1: error: 'tile' takes a loop and a size: 'tile LOOP SIZE'");
  EXPECT_EQ(ParseStrategy("tile j 0", "s", base).status().message(),
            "s:1:1: error: 'tile' takes an integer from 1 to 1073741824, not "
            "'0'");
  EXPECT_EQ(ParseStrategy("\ninterchange i i", "s", base).status().message(),
            "s:2:1: error: 'interchange' takes two or more distinct loops, "
            "outermost first");
  EXPECT_EQ(ParseStrategy("interchange i", "s", base).status().message(),
            "s:1:1: error: 'interchange' takes two or more distinct loops, "
            "outermost first");
}

TEST(StrategyTest, TailsArePadPeelOrMask) {
  auto strategy = ParseStrategy("tail mask\n", "s", Strategy{});
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->tail, Tail::kMask);
  EXPECT_NE(PrintStrategy(*strategy).find("tail mask\n"), std::string::npos);
}

TEST(StrategyTest, PackingIsAutoYesOrNo) {
  EXPECT_EQ(Strategy{}.pack, Pack::kAuto);
  for (const auto& [text, pack] :
       {std::pair{"pack yes\n", Pack::kYes}, std::pair{"pack no\n", Pack::kNo},
        std::pair{"pack auto\n", Pack::kAuto}}) {
    auto strategy = ParseStrategy(text, "s", Strategy{});
    ASSERT_TRUE(strategy.ok()) << strategy.status();
    EXPECT_EQ(strategy->pack, pack);
    EXPECT_NE(PrintStrategy(*strategy).find(text), std::string::npos);
  }
  EXPECT_EQ(ParseStrategy("pack always\n", "s", Strategy{}).status().message(),
            "s:1:1: error: 'pack' is 'auto', 'yes' or 'no', not 'always'");
}

TEST(StrategyTest, PackReadsIsTheFewestReadsAutoPacksFor) {
  EXPECT_EQ(DefaultStrategy("avx512")->pack_reads, 64);
  EXPECT_EQ(DefaultStrategy("avx2")->pack_reads, 3);
  auto strategy = ParseStrategy("pack-reads 8\n", "s", Strategy{});
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->pack_reads, 8);
  EXPECT_NE(PrintStrategy(*strategy).find("pack-reads 8\n"), std::string::npos);
  EXPECT_THAT(
      ParseStrategy("pack-reads 0\n", "s", Strategy{}).status().message(),
      HasSubstr("s:1:1: error: 'pack-reads' takes an integer from 1"));
}

TEST(StrategyTest, PackTapsIsTheLeastDistanceOfTapsPackedByTiles) {
  EXPECT_EQ(DefaultStrategy("avx512")->pack_taps, 0);
  EXPECT_EQ(DefaultStrategy("avx2")->pack_taps, 256);
  auto strategy = ParseStrategy("pack-taps 0\n", "s", *DefaultStrategy("avx2"));
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->pack_taps, 0);
  EXPECT_NE(PrintStrategy(*strategy).find("pack-taps 0\n"), std::string::npos);
  EXPECT_THAT(
      ParseStrategy("pack-taps -1\n", "s", Strategy{}).status().message(),
      HasSubstr("s:1:1: error: 'pack-taps' takes an integer from 0"));
}

TEST(StrategyTest, NontemporalIsTheLeastOutputStreamed) {
  EXPECT_EQ(DefaultStrategy("avx512")->nontemporal, 524288);
  EXPECT_EQ(DefaultStrategy("avx2")->nontemporal, 524288);
  auto strategy =
      ParseStrategy("nontemporal 4096\n", "s", *DefaultStrategy("avx512"));
  ASSERT_TRUE(strategy.ok()) << strategy.status();
  EXPECT_EQ(strategy->nontemporal, 4096);
  EXPECT_NE(PrintStrategy(*strategy).find("nontemporal 4096\n"),
            std::string::npos);
  EXPECT_THAT(
      ParseStrategy("nontemporal -1\n", "s", Strategy{}).status().message(),
      HasSubstr("s:1:1: error: 'nontemporal' takes an integer from 0"));
}

}  // namespace
}  // namespace tessel::vectorize
