#include "libs/primitives/sink_alloc.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

absl::StatusOr<std::string> Sink(const std::string& text) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return SinkAlloc(module, ir::Cursor(module, &Nth(proc, ir::Op::kAlloc)))
            .status();
      },
      {{{"N", 5}}});
}

TEST(SinkAllocTest, SinksATemporaryIntoALoop) {
  auto result = Sink(
      "(proc @p ((size N) (in B (f32 N N)) (out C (f32 N N)))\n"
      "  (alloc t (f32 N))\n"
      "  (for i 0 N (for j 0 N (assign (t j) (B i j)))\n"
      "    (for j 0 N (assign (C i j) (* (t j) (t (- (- N 1) j)))))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out C (f32 N N)))\n"
            "  (for i 0 N\n"
            "    (alloc t (f32 N))\n"
            "    (for j 0 N (assign (t j) (B i j)))\n"
            "    (for j 0 N (assign (C i j) (* (t j) (t (- (- N 1) j)))))))\n");
}

TEST(SinkAllocTest, SinksIntoBothBranchesOfAnIf) {
  auto result = Sink(
      "(proc @p ((size N) (in B (f32 N)) (inout C (f32 N)))\n"
      "  (alloc t f32)\n"
      "  (if (> N 2) (then (assign t (B 0)) (assign (C 0) t))\n"
      "              (else (assign t (* 2.0 (B 0))) (assign (C 0) t))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout C (f32 N)))\n"
            "  (if (> N 2)\n"
            "    (then (alloc t f32) (assign t (B 0)) (assign (C 0) t))\n"
            "    (else (alloc t f32) (assign t (* 2.0 (B 0))) (assign (C 0) "
            "t))))\n");
}

TEST(SinkAllocTest, RejectsAValueCarriedAcrossIterations) {
  auto result = Sink(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (alloc t f32)\n"
      "  (for i 0 N (if (== i 0) (then (assign t 0.0)))\n"
      "    (reduce t (B i)) (assign (C i) t)))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "sink_alloc: 't' carries values from one iteration of 'i' to the "
            "next: at N = 2, i = 1: t is read before the iteration writes it");
}

TEST(SinkAllocTest, RejectsAnElementWrittenOnlyInAnEarlierIteration) {
  auto result = Sink(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (alloc t (f32 N))\n"
      "  (for i 0 N (assign (t i) (B i)) (assign (C i) (t 0))))\n");
  EXPECT_EQ(
      std::string(result.status().message()),
      "sink_alloc: 't' carries values from one iteration of 'i' to the "
      "next: at N = 2, i = 1: t[0] is read before the iteration writes it");
}

TEST(SinkAllocTest, RejectsAUseAfterTheScope) {
  auto result = Sink(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (alloc t f32)\n"
      "  (for i 0 N (assign t (B i)) (assign (C i) t))\n"
      "  (assign (C 0) t))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "sink_alloc: 't' is used after the scope");
}

}  // namespace
}  // namespace tessel::primitives
