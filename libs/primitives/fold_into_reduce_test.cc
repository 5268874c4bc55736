#include "libs/primitives/fold_into_reduce.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

// fold_into_reduce of the statement at `path` in the proc of `text`.
std::string Folded(const std::string& text, const std::vector<size_t>& path) {
  return testing::OutcomeAt(text, path, FoldIntoReduce);
}

// Exo's test_fold_into_reduce_1.
TEST(FoldIntoReduce, FoldsASumIntoItsLocation) {
  EXPECT_EQ(Folded("(proc @f ((inout x (f32 4 3)) (in y (f32 4)))\n"
                   "  (for i 0 4 (assign (x i 1) (+ (x i 1) (* (y i) 2.0)))))\n",
                   {0, 0}),
            "(proc @f ((inout x (f32 4 3)) (in y (f32 4)))\n"
            "  (for i 0 4 (reduce (x i 1) (* (y i) 2.0))))\n");
}

// Exo's test_fold_into_reduce_fail: another element on the left.
TEST(FoldIntoReduce, RejectsAnotherElement) {
  EXPECT_EQ(Folded("(proc @f ((inout x (f32 4 3)))\n"
                   "  (for i 0 4 (assign (x i 1) (+ (x i 2) 1.0))))\n",
                   {0, 0}),
            "fold_into_reduce: the sum's left operand '(x i 2)' is not the "
            "assigned location '(x i 1)'");
}

// A left operand that is no location (a sum, a literal) names no buffer
// (found by scripts/fuzz-inputs.sh: UBSan saw a null reference).
TEST(FoldIntoReduce, RejectsALeftOperandThatIsNoLocation) {
  EXPECT_EQ(Folded("(proc @f ((inout x (f32 4)) (in s f32))\n"
                   "  (for i 0 4 (assign (x i) (+ (+ s (x i)) s))))\n",
                   {0, 0}),
            "fold_into_reduce: the sum's left operand '(+ s (x i))' is not "
            "the assigned location '(x i)'");
  EXPECT_EQ(Folded("(proc @f ((inout x (f32 4)))\n"
                   "  (for i 0 4 (assign (x i) (+ 1.0 (x i)))))\n",
                   {0, 0}),
            "fold_into_reduce: the sum's left operand '1.0' is not the "
            "assigned location '(x i)'");
}

TEST(FoldIntoReduce, RejectsAReduction) {
  EXPECT_EQ(Folded("(proc @f ((inout x f32))\n  (reduce x (+ x 1.0)))\n", {0}),
            "fold_into_reduce expects an assignment of a sum (x = x + e), not "
            "'(reduce x (+ x 1.0))'");
}

TEST(FoldIntoReduce, Spec) {
  EXPECT_EQ(FoldIntoReduceSpec().name, "fold_into_reduce");
}

}  // namespace
}  // namespace tessel::primitives
