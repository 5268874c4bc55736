#include "libs/primitives/merge_writes.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// merge_writes of the first two statements of the loop of @f, whose body
// is `body` (x and y of `type`).
std::string Merged(const std::string& body, const std::string& type = "f32") {
  std::string text = "(proc @f ((inout x (" + type + " 4)) (in y (" + type +
                     " 4)))\n  (for i 0 4 " + body + "))\n";
  return Outcome(testing::Rewrite(text, [&](ir::Module& module,
                                            ir::Node& proc) {
    ir::Cursor first = StmtAt(module, proc, {0, 0});
    return MergeWrites(module, ir::BlockCursor(first, first.next()));
  }));
}

// Exo's test_merge_writes_all_4_cases, one case each.
TEST(MergeWrites, AssignThenAssignKeepsTheSecond) {
  EXPECT_EQ(Merged("(assign (x i) (y i)) (assign (x i) (* (y i) 2.0))"),
            "(proc @f ((inout x (f32 4)) (in y (f32 4)))\n"
            "  (for i 0 4 (assign (x i) (* (y i) 2.0))))\n");
}

TEST(MergeWrites, ReduceThenAssignKeepsTheSecond) {
  EXPECT_EQ(Merged("(reduce (x i) (y i)) (assign (x i) 1.0)"),
            "(proc @f ((inout x (f32 4)) (in y (f32 4))) (for i 0 4 (assign "
            "(x i) 1.0)))\n");
}

TEST(MergeWrites, AssignThenReduceAssignsTheSum) {
  EXPECT_EQ(Merged("(assign (x i) (y i)) (reduce (x i) 1.0)"),
            "(proc @f ((inout x (f32 4)) (in y (f32 4)))\n"
            "  (for i 0 4 (assign (x i) (+ (y i) 1.0))))\n");
}

TEST(MergeWrites, ReduceThenReduceOfIntegersReducesTheSum) {
  EXPECT_EQ(Merged("(reduce (x i) (y i)) (reduce (x i) 3)", "i32"),
            "(proc @f ((inout x (i32 4)) (in y (i32 4)))\n"
            "  (for i 0 4 (reduce (x i) (+ (y i) 3))))\n");
}

// Beyond Exo: float reductions do not regroup exactly.
TEST(MergeWrites, RejectsFloatReductions) {
  EXPECT_EQ(Merged("(reduce (x i) (y i)) (reduce (x i) 1.0)"),
            "merge_writes: regrouping + over f32 changes its rounding ((1 + "
            "1e20) + -1e20 is not 1 + (1e20 + -1e20)): only integer values "
            "regroup exactly");
}

// Beyond Exo: the second value would no longer see the first write.
TEST(MergeWrites, RejectsASecondValueReadingTheBuffer) {
  EXPECT_EQ(Merged("(assign (x i) (y i)) (assign (x i) (* (x i) 2.0))"),
            "merge_writes: the second value reads '(x i)', which the first "
            "statement may have written");
}

// w names a window of x: reading x may read what w[i] = ... wrote.
TEST(MergeWrites, RejectsASecondValueReadingAnotherNameOfTheBuffer) {
  std::string text =
      "(proc @f ((inout x (f32 4)) (in y (f32 4)))\n"
      "  (let w (window x (: 0 4)))\n"
      "  (for i 0 4 (assign (w i) (y i)) (reduce (w i) (x 0))))\n";
  EXPECT_EQ(Outcome(testing::Rewrite(text,
                                     [&](ir::Module& module, ir::Node& proc) {
                                       ir::Cursor first =
                                           StmtAt(module, proc, {1, 0});
                                       return MergeWrites(
                                           module, ir::BlockCursor(
                                                       first, first.next()));
                                     })),
            "merge_writes: the second value reads '(x 0)', which the first "
            "statement may have written");
}

TEST(MergeWrites, RejectsDifferentLocations) {
  EXPECT_EQ(Merged("(assign (x i) (y i)) (assign (x 0) 1.0)"),
            "merge_writes: the statements write different locations, '(x i)' "
            "and '(x 0)'");
}

TEST(MergeWrites, Spec) { EXPECT_EQ(MergeWritesSpec().name, "merge_writes"); }

}  // namespace
}  // namespace tessel::primitives
