#include "libs/primitives/fuse_if.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;
using testing::Outcome;

// fuse of the first if of the proc of `text` and the next statement, run
// with a = b and with a != b.
std::string Fused(const std::string& text) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor first(module, &Nth(proc, ir::Op::kIf));
        return FuseIf(module, first, first.next()).status();
      },
      {{{"a", 2}, {"b", 2}}, {{"a", 1}, {"b", 2}}}));
}

// Exo's test_fuse_if: a == b and a - b == 0 hold together.
TEST(FuseIf, FusesEqualConditions) {
  EXPECT_EQ(Fused("(proc @foo ((inout x f32) (index a) (index b))\n"
                  "  (if (== a b) (then (reduce x 1.0)))\n"
                  "  (if (== (- a b) 0) (then (reduce x 2.0)) (else (reduce x "
                  "3.0))))\n"),
            "(proc @foo ((inout x f32) (index a) (index b))\n"
            "  (if (== a b) (then (reduce x 1.0) (reduce x 2.0)) (else "
            "(reduce x 3.0))))\n");
}

// Exo's test_fuse_if_fail: a + b == 0 is another condition.
TEST(FuseIf, RejectsDifferentConditionsWithAWitness) {
  EXPECT_EQ(Fused("(proc @foo ((inout x f32) (index a) (index b))\n"
                  "  (if (== a b) (then (reduce x 1.0)))\n"
                  "  (if (== (+ a b) 0) (then (reduce x 2.0))))\n"),
            "fuse: the conditions of the ifs differ at a = -1, b = -1");
}

TEST(FuseIf, RejectsIfsThatAreNotAdjacent) {
  EXPECT_EQ(Fused("(proc @foo ((inout x f32) (index a) (index b))\n"
                  "  (if (== a b) (then (reduce x 1.0)))\n"
                  "  (reduce x 4.0)\n"
                  "  (if (== a b) (then (reduce x 2.0))))\n"),
            "fuse: expected two ifs or two loops");
}

}  // namespace
}  // namespace tessel::primitives
