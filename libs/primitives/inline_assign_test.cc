#include "libs/primitives/inline_assign.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

// inline_assign of the statement at `path` in the proc of `text`.
std::string Inlined(const std::string& text, const std::vector<size_t>& path) {
  return testing::OutcomeAt(text, path, InlineAssign);
}

// Exo's test_inline_assign.
TEST(InlineAssign, SubstitutesTheValue) {
  EXPECT_EQ(Inlined("(proc @f ((in y (f32 4)) (out z (f32 4)))\n"
                    "  (for i 0 4\n"
                    "    (alloc x f32)\n"
                    "    (assign x (* (y i) 2.0))\n"
                    "    (assign (z i) (+ x x))))\n",
                    {0, 1}),
            "(proc @f ((in y (f32 4)) (out z (f32 4)))\n"
            "  (for i 0 4 (alloc x f32) (assign (z i) (+ (* (y i) 2.0) (* (y "
            "i) 2.0)))))\n");
}

// Beyond Exo: the value changes before the inlined read.
TEST(InlineAssign, RejectsAWriteOfWhatTheValueReads) {
  EXPECT_EQ(Inlined("(proc @f ((inout y (f32 4)) (out z (f32 4)))\n"
                    "  (for i 0 4\n"
                    "    (alloc x f32)\n"
                    "    (assign x (y i))\n"
                    "    (assign (y i) 0.0)\n"
                    "    (assign (z i) x)))\n",
                    {0, 1}),
            "inline_assign: '(assign (y i) 0.0)' may write 'y', which the "
            "value reads");
}

TEST(InlineAssign, RejectsALaterWriteOfTheScalar) {
  EXPECT_EQ(Inlined("(proc @f ((in y (f32 4)) (out z (f32 4)))\n"
                    "  (for i 0 4\n"
                    "    (alloc x f32)\n"
                    "    (assign x (y i))\n"
                    "    (reduce x 1.0)\n"
                    "    (assign (z i) x)))\n",
                    {0, 1}),
            "inline_assign: '(reduce x 1.0)' may write 'x', which the inlined "
            "statements read");
}

// An out parameter is read after the proc returns.
TEST(InlineAssign, RejectsAParameter) {
  EXPECT_EQ(Inlined("(proc @f ((in y (f32 4)) (out x f32))\n"
                    "  (assign x (y 0)))\n",
                    {0}),
            "inline_assign: 'x' must be an alloc declared in the body of its "
            "assignment, so that nothing reads it after that body");
}

TEST(InlineAssign, Spec) { EXPECT_EQ(InlineAssignSpec().name, "inline_assign"); }

}  // namespace
}  // namespace tessel::primitives
