#include "libs/primitives/left_reassociate_expr.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;
using testing::Outcome;

// left_reassociate_expr of the first node of `op` in the proc of `text`.
std::string Reassociated(const std::string& text, ir::Op op) {
  return Outcome(testing::Rewrite(text, [&](ir::Module& module,
                                            ir::Node& proc) {
    return LeftReassociateExpr(module, ir::Cursor(module, &Nth(proc, op)));
  }));
}

// Exo's test_left_reassociate_expr, on integers (exact).
TEST(LeftReassociateExpr, RegroupsIntegers) {
  EXPECT_EQ(Reassociated("(proc @f ((in a (i32 3)) (out z i32))\n"
                         "  (assign z (+ (a 0) (+ (a 1) (a 2)))))\n",
                         ir::Op::kAdd),
            "(proc @f ((in a (i32 3)) (out z i32)) (assign z (+ (+ (a 0) (a "
            "1)) (a 2))))\n");
}

TEST(LeftReassociateExpr, RejectsFloatsWithValuesItChanges) {
  EXPECT_EQ(Reassociated("(proc @f ((in a (f32 3)) (out z f32))\n"
                         "  (assign z (* (a 0) (* (a 1) (a 2)))))\n",
                         ir::Op::kMul),
            "left_reassociate_expr: regrouping * over f32 changes its "
            "rounding ((1e30 * 1e30) * 1e-30 is not 1e30 * (1e30 * 1e-30)): "
            "only integer values regroup exactly");
}

TEST(LeftReassociateExpr, RejectsARightOperandOfAnotherOperator) {
  EXPECT_EQ(Reassociated("(proc @f ((in a (i32 3)) (out z i32))\n"
                         "  (assign z (+ (a 0) (* (a 1) (a 2)))))\n",
                         ir::Op::kAdd),
            "left_reassociate_expr expects a + (b + c) or a * (b * c), not "
            "'(+ (a 0) (* (a 1) (a 2)))'");
}

TEST(LeftReassociateExpr, Spec) {
  EXPECT_EQ(LeftReassociateExprSpec().name, "left_reassociate_expr");
}

}  // namespace
}  // namespace tessel::primitives
