#include "libs/primitives/commute_expr.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;
using testing::Outcome;

// commute_expr of the first `count` nodes of op `op` in the proc of `text`.
std::string Commuted(const std::string& text, ir::Op op, int count = 1) {
  return Outcome(testing::Rewrite(text, [&](ir::Module& module,
                                            ir::Node& proc) {
    std::vector<ir::Cursor> exprs;
    for (int n = 0; n < count; ++n) exprs.emplace_back(module, &Nth(proc, op, n));
    return CommuteExpr(module, exprs);
  }));
}

// Exo's test_commute: a product of two reads swapped.
TEST(CommuteExpr, SwapsAProduct) {
  EXPECT_EQ(Commuted("(proc @f ((in x (f32 3)) (in y (f32 3)) (out z f32))\n"
                     "  (for i 0 3 (assign z (* (x i) (y i)))))\n",
                     ir::Op::kMul),
            "(proc @f ((in x (f32 3)) (in y (f32 3)) (out z f32))\n"
            "  (for i 0 3 (assign z (* (y i) (x i)))))\n");
}

// A match inside another: the outer one copies the swapped inner one.
TEST(CommuteExpr, SwapsNestedSums) {
  EXPECT_EQ(Commuted("(proc @f ((in x (f32 3)) (out z f32))\n"
                     "  (assign z (+ (+ (x 0) (x 1)) (x 2))))\n",
                     ir::Op::kAdd, 2),
            "(proc @f ((in x (f32 3)) (out z f32)) (assign z (+ (x 2) (+ (x "
            "1) (x 0)))))\n");
}

TEST(CommuteExpr, RejectsADifference) {
  EXPECT_EQ(Commuted("(proc @f ((in x (f32 3)) (out z f32))\n"
                     "  (assign z (- (x 0) (x 1))))\n",
                     ir::Op::kSub),
            "commute_expr expects a sum or a product, not '(- (x 0) (x 1))'");
}

TEST(CommuteExpr, Spec) {
  PrimitiveSpec spec = CommuteExprSpec();
  EXPECT_EQ(spec.name, "commute_expr");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "expr_cursors");
}

}  // namespace
}  // namespace tessel::primitives
