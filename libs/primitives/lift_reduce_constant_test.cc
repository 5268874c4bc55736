#include "libs/primitives/lift_reduce_constant.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// lift_reduce_constant of the first two statements of the proc of `text`.
std::string Lifted(const std::string& text) {
  return Outcome(testing::Rewrite(text, [&](ir::Module& module,
                                            ir::Node& proc) {
    ir::Cursor first = StmtAt(module, proc, {0});
    return LiftReduceConstant(module, ir::BlockCursor(first, first.next()));
  }));
}

// Exo's test_lift_reduce_constant_1, on integers.
TEST(LiftReduceConstant, LiftsAnIntegerFactor) {
  EXPECT_EQ(Lifted("(proc @f ((in y (i32 8)) (in c i32) (out x i32))\n"
                   "  (assign x 0)\n"
                   "  (for i 0 8 (reduce x (* c (y i)))))\n"),
            "(proc @f ((in y (i32 8)) (in c i32) (out x i32))\n"
            "  (assign x 0)\n"
            "  (for i 0 8 (reduce x (y i)))\n"
            "  (assign x (* c x)))\n");
}

TEST(LiftReduceConstant, RejectsAFactorOfTheLoop) {
  EXPECT_EQ(Lifted("(proc @f ((in y (i32 8)) (out x i32))\n"
                   "  (assign x 0)\n"
                   "  (for i 0 8 (reduce x (* (y i) (y i)))))\n"),
            "lift_reduce_constant: the factor '(y i)' uses the loop variable "
            "'i'");
}

// Exo's test_lift_reduce_constant_1 itself: floats round differently.
TEST(LiftReduceConstant, RejectsFloats) {
  EXPECT_EQ(Lifted("(proc @f ((in y (f32 8)) (out x f32))\n"
                   "  (assign x 0.0)\n"
                   "  (for i 0 8 (reduce x (* 3.0 (y i)))))\n"),
            "lift_reduce_constant: regrouping * over + over f32 changes its "
            "rounding (1e30 * 1e30 + 1e30 * -1e30 is not 1e30 * (1e30 + "
            "-1e30)): only integer values regroup exactly");
}

TEST(LiftReduceConstant, Spec) {
  EXPECT_EQ(LiftReduceConstantSpec().name, "lift_reduce_constant");
}

}  // namespace
}  // namespace tessel::primitives
