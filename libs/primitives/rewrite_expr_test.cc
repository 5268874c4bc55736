#include "libs/primitives/rewrite_expr.h"

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using testing::Outcome;
using testing::Rewrite;

// @f's loop bound (% n 4) where an assertion says n is a multiple of 4.
constexpr char kText[] = R"((proc @f ((size n) (in x (f32 n)) (inout y (f32 n)))
  (assert (== (% n 4) 0))
  (for i 0 n (for j 0 (% n 4) (assign (y i) (x i))))))";

// Rewrites the inner loop's upper bound to the literal `value`: the result's
// text (verified, computing what the original does for n = 4, 8), or the
// error.
std::string Rewritten(int64_t value) {
  return Outcome(Rewrite(kText,
                         [&](ir::Module& module, ir::Node& proc) {
                           ir::Node* inner = ir::Body(*ir::Body(proc)[0])[0];
                           return RewriteExpr(
                               module, ir::Cursor(module, inner->operand(1)),
                               *Build::Int(module, value));
                         },
                         {{{"n", 4}}, {{"n", 8}}}));
}

TEST(RewriteExpr, ProvenEqualUnderTheAssertions) {
  EXPECT_EQ(Rewritten(0),
            "(proc @f ((size n) (in x (f32 n)) (inout y (f32 n)))\n"
            "  (assert (== (% n 4) 0))\n"
            "  (for i 0 n (for j 0 0 (assign (y i) (x i)))))\n");
}

TEST(RewriteExpr, RejectsADifferentValueWithAWitness) {
  EXPECT_EQ(Rewritten(1),
            "rewrite_expr: the new expression must equal the old, but it can "
            "be 1 where the old is 0 (at n = 4, i = 0)");
}

TEST(RewriteExpr, Spec) {
  PrimitiveSpec spec = RewriteExprSpec();
  EXPECT_EQ(spec.name, "rewrite_expr");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_EQ(spec.params[0].name, "expr_cursor");
  EXPECT_EQ(spec.params[1].name, "new_expr");
}

}  // namespace
}  // namespace tessel::primitives
