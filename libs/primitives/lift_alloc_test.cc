#include "libs/primitives/lift_alloc.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

absl::StatusOr<std::string> Lift(const std::string& text, int64_t n_lifts) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return LiftAlloc(module, ir::Cursor(module, &Nth(proc, ir::Op::kAlloc)),
                         n_lifts)
            .status();
      },
      {{{"N", 5}}});
}

constexpr char kTemp[] =
    "(proc @p ((size N) (in B (f32 N N)) (out C (f32 N N)))\n"
    "  (for i 0 N (for j 0 N (alloc t f32) (assign t (B i j))\n"
    "    (assign (C i j) (* t t)))))\n";

TEST(LiftAllocTest, LiftsOutOfOneLoop) {
  auto result = Lift(kTemp, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out C (f32 N N)))\n"
            "  (for i 0 N\n"
            "    (alloc t f32)\n"
            "    (for j 0 N (assign t (B i j)) (assign (C i j) (* t t)))))\n");
}

TEST(LiftAllocTest, LiftsOutOfTwoLoops) {
  auto result = Lift(kTemp, 2);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out C (f32 N N)))\n"
            "  (alloc t f32)\n"
            "  (for i 0 N (for j 0 N (assign t (B i j)) (assign (C i j) (* t "
            "t)))))\n");
}

TEST(LiftAllocTest, LiftsOutOfAnIf) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout C (f32 N)))\n"
      "  (if (> N 2) (then (alloc t f32) (assign t (B 0)) (assign (C 0) "
      "t))))\n",
      1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout C (f32 N)))\n"
            "  (alloc t f32)\n"
            "  (if (> N 2) (then (assign t (B 0)) (assign (C 0) t))))\n");
}

TEST(LiftAllocTest, RejectsLiftingOutOfTheProc) {
  auto result = Lift(kTemp, 3);
  EXPECT_EQ(std::string(result.status().message()),
            "lift_alloc: lift 3 of 3 is out of the procedure's body");
}

TEST(LiftAllocTest, RejectsANameTaken) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (alloc t f32) (assign t (B i)) (assign (C i) t))\n"
      "  (alloc t f32) (assign t 1.0))\n",
      1);
  EXPECT_EQ(std::string(result.status().message()),
            "lift_alloc: 't' is declared already where it would go");
}

}  // namespace
}  // namespace tessel::primitives
