#include "libs/primitives/remove_loop.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// remove_loop on the `n`-th loop of the proc of `text`.
absl::StatusOr<std::string> Remove(const std::string& text, int n = 0) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return RemoveLoop(module,
                          ir::Cursor(module, &Nth(proc, ir::Op::kFor, n)))
            .status();
      },
      {{{"N", 5}}});
}

// The config hoisting of Exo's section 2: a configuration write repeated
// in every iteration.
TEST(RemoveLoopTest, RemovesARepeatedConfigWrite) {
  auto result = Remove(
      "(config @C (scale f32))\n"
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
      "  (for i 0 N (write-config @C scale 2.0))\n"
      "  (for i 0 N (assign (A i) (B i))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(config @C (scale f32))\n"
            "\n"
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
            "  (write-config @C scale 2.0)\n"
            "  (for i 0 N (assign (A i) (B i))))\n");
}

TEST(RemoveLoopTest, RemovesAnIdempotentNest) {
  auto result = Remove(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
      "  (for i 0 8 (for j 0 N (assign (A j) (B j)))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
            "  (for j 0 N (assign (A j) (B j))))\n");
}

TEST(RemoveLoopTest, GuardsALoopThatMayNotRun) {
  auto result = Remove(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (for i 3 N (assign (A 0) (B 1))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
            "  (if (< 3 N) (then (assign (A 0) (B 1)))))\n");
}

TEST(RemoveLoopTest, RejectsABodyUsingTheVariable) {
  auto result = Remove(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A i) 1.0)))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "remove_loop: the body uses the loop variable 'i'");
}

TEST(RemoveLoopTest, RejectsAReduction) {
  auto result = Remove(
      "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
      "  (for i 0 N (reduce s (B 0))))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "remove_loop: the body is not idempotent: N = 1: instances (i = 0) "
            "and (i = 0) both access s: both reduce");
}

TEST(RemoveLoopTest, RejectsReadingWhatItWrites) {
  auto result = Remove(
      "(proc @p ((size N) (inout A (f32 N)))\n"
      "  (for i 0 N (assign (A 0) (+ (A 0) 1.0))))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "remove_loop: the body is not idempotent: N = 1: instances (i = 0) "
            "and (i = 0) both access A[0]: the first writes, the second reads");
}

}  // namespace
}  // namespace tessel::primitives
