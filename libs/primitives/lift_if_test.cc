#include "libs/primitives/lift_if.h"

#include <cstdint>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// lift_if of the `n`-th if of the proc of `text`, run at n = 25 and 5 (and
// i = 3 and 12, where the proc takes i).
std::string Lifted(const std::string& text, int n, int64_t n_lifts,
                   bool takes_i = false) {
  return testing::Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return LiftIf(module, ir::Cursor(module, &Nth(proc, ir::Op::kIf, n)),
                      n_lifts)
            .status();
      },
      takes_i ? std::vector<testing::Sizes>{{{"n", 25}, {"i", 3}},
                                            {{"n", 5}, {"i", 12}}}
              : std::vector<testing::Sizes>{{{"n", 25}}, {{"n", 5}}}));
}

// Exo's test_lift_if_past_if_then_for: two lifts, out of a loop and an if.
TEST(LiftIf, LiftsPastALoopAndAnIf) {
  EXPECT_EQ(Lifted("(proc @foo ((size n) (inout x (f32 n)) (index i))\n"
                   "  (if (> n 20) (then (for j 0 n (if (< i 10) "
                   "(then (assign (x j) 1.0)))))))\n",
                   1, 2, /*takes_i=*/true),
            "(proc @foo ((size n) (inout x (f32 n)) (index i))\n"
            "  (if (< i 10) (then (if (> n 20) (then (for j 0 n (assign (x j) "
            "1.0)))))))\n");
}

// Exo's test_lift_if_in_full_nest: out of an if with an else-branch, whose
// other branch goes into both.
TEST(LiftIf, LiftsOutOfAnElseBranch) {
  EXPECT_EQ(Lifted("(proc @foo ((size n) (inout x (f32 n)))\n"
                   "  (if (< 10 n)\n"
                   "    (then (if (< n 15) (then (assign (x 0) 1.0)) "
                   "(else (assign (x 0) 2.0))))\n"
                   "    (else (if (< n 20) (then (assign (x 0) 3.0)) "
                   "(else (assign (x 0) 4.0))))))\n",
                   2, 1),
            "(proc @foo ((size n) (inout x (f32 n)))\n"
            "  (if (< n 20)\n"
            "    (then\n"
            "      (if (< 10 n)\n"
            "        (then (if (< n 15) (then (assign (x 0) 1.0)) "
            "(else (assign (x 0) 2.0))))\n"
            "        (else (assign (x 0) 3.0))))\n"
            "    (else\n"
            "      (if (< 10 n)\n"
            "        (then (if (< n 15) (then (assign (x 0) 1.0)) "
            "(else (assign (x 0) 2.0))))\n"
            "        (else (assign (x 0) 4.0))))))\n");
}

// Exo's test_lift_if_dependency_error, one lift in: the second lift fails
// and the first is undone.
TEST(LiftIf, UndoesEveryLiftWhenOneFails) {
  EXPECT_EQ(Lifted("(proc @foo ((size n) (inout x (f32 n)))\n"
                   "  (for j 0 n (if (< n 20) (then (if (< j 10) "
                   "(then (assign (x j) 1.0)))))))\n",
                   1, 2),
            "lift_if: could not lift the if 2 times (1 lift remains): "
            "lift_scope: the condition uses the loop variable 'j'");
}

TEST(LiftIf, RefusesALoop) {
  EXPECT_EQ(testing::OutcomeAt("(proc @foo ((size n) (inout x (f32 n)))\n"
                               "  (for j 0 n (assign (x j) 1.0)))\n",
                               {0},
                               [](ir::Module& module, const ir::Cursor& at) {
                                 return LiftIf(module, at).status();
                               }),
            "lift_if: expected an if");
}

TEST(LiftIf, Spec) { EXPECT_EQ(LiftIfSpec().name, "lift_if"); }

}  // namespace
}  // namespace tessel::primitives
