#include "libs/primitives/split_write.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// split_write of the statement in the loop of @f, `stmt` (x, y of `type`).
std::string Split(const std::string& stmt, const std::string& type = "f32") {
  std::string text = "(proc @f ((inout x (" + type + " 4)) (in y (" + type +
                     " 4)))\n  (for i 0 4 " + stmt + "))\n";
  return Outcome(testing::Rewrite(text, [&](ir::Module& module,
                                            ir::Node& proc) {
    return SplitWrite(module, StmtAt(module, proc, {0, 0}));
  }));
}

// Exo's test_split_write.
TEST(SplitWrite, SplitsAnAssignment) {
  EXPECT_EQ(Split("(assign (x i) (+ (y i) 2.0))"),
            "(proc @f ((inout x (f32 4)) (in y (f32 4)))\n"
            "  (for i 0 4 (assign (x i) (y i)) (reduce (x i) 2.0)))\n");
}

TEST(SplitWrite, SplitsAnIntegerReduction) {
  EXPECT_EQ(Split("(reduce (x i) (+ (y i) 2))", "i32"),
            "(proc @f ((inout x (i32 4)) (in y (i32 4)))\n"
            "  (for i 0 4 (reduce (x i) (y i)) (reduce (x i) 2)))\n");
}

TEST(SplitWrite, RejectsAFloatReduction) {
  EXPECT_EQ(Split("(reduce (x i) (+ (y i) 2.0))"),
            "split_write: regrouping + over f32 changes its rounding ((1 + "
            "1e20) + -1e20 is not 1 + (1e20 + -1e20)): only integer values "
            "regroup exactly");
}

TEST(SplitWrite, RejectsARightOperandReadingTheBuffer) {
  EXPECT_EQ(Split("(assign (x i) (+ (y i) (x i)))"),
            "split_write: the sum's right operand reads '(x i)', which the "
            "first of the two writes may change");
}

TEST(SplitWrite, Spec) { EXPECT_EQ(SplitWriteSpec().name, "split_write"); }

}  // namespace
}  // namespace tessel::primitives
