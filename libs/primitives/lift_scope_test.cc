#include "libs/primitives/lift_scope.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

absl::StatusOr<std::string> Lift(const std::string& text, ir::Op op, int n) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return LiftScope(module, ir::Cursor(module, &Nth(proc, op, n)))
            .status();
      },
      {{{"N", 5}}});
}

TEST(LiftScopeTest, LiftsAnIfOutOfALoop) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (for i 0 N (if (> N 3) (then (assign (A i) (B i)))\n"
      "                         (else (assign (A i) 0.0)))))\n",
      ir::Op::kIf, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
            "  (if (> N 3)\n"
            "    (then (for i 0 N (assign (A i) (B i))))\n"
            "    (else (for i 0 N (assign (A i) 0.0)))))\n");
}

TEST(LiftScopeTest, LiftsALoopOutOfAnIf) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (if (> N 3) (then (for i 0 N (assign (A i) (B i))))))\n",
      ir::Op::kFor, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
            "  (for i 0 N (if (> N 3) (then (assign (A i) (B i))))))\n");
}

TEST(LiftScopeTest, LiftsAnIfOutOfAnIf) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (if (> N 3) (then (if (< N 7) (then (assign (A 0) (B 0)))\n"
      "                                (else (assign (A 0) 1.0))))))\n",
      ir::Op::kIf, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
            "  (if (< N 7)\n"
            "    (then (if (> N 3) (then (assign (A 0) (B 0)))))\n"
            "    (else (if (> N 3) (then (assign (A 0) 1.0))))))\n");
}

TEST(LiftScopeTest, LiftsALoopOutOfALoop) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)))\n"
      "  (for i 0 N (for j 0 N (assign (A i j) (B j i)))))\n",
      ir::Op::kFor, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)))\n"
            "  (for j 0 N (for i 0 N (assign (A i j) (B j i)))))\n");
}

TEST(LiftScopeTest, RejectsAConditionOnTheLoopVariable) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (for i 0 N (if (> i 2) (then (assign (A i) (B i))))))\n",
      ir::Op::kIf, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "lift_scope: the condition uses the loop variable 'i'");
}

TEST(LiftScopeTest, RejectsAConditionTheBodyReconfigures) {
  auto result = Lift(
      "(config @C (n size))\n"
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (for i 0 N (if (> (read-config @C n) 2) (then (write-config @C n 1)\n"
      "    (assign (A i) (B i))))))\n",
      ir::Op::kIf, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "lift_scope: the condition does not commute with the loop's body: "
            "N = 1, (read-config @C n) = 3: instances (i = 0) and (i = 0) both "
            "access @C.n: the first reads, the second writes");
}

TEST(LiftScopeTest, RejectsAScopeWithSiblings) {
  auto result = Lift(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)))\n"
      "  (for i 0 N (assign (A i) 0.0) (if (> N 2) (then (assign (A i) (B "
      "i))))))\n",
      ir::Op::kIf, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "lift_scope: the scope must be the only statement of the body "
            "around it");
}

}  // namespace
}  // namespace tessel::primitives
