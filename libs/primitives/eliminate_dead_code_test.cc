#include "libs/primitives/eliminate_dead_code.h"

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::Rewrite;

// Eliminates dead code in the first statement of @f's first loop: the
// result's text (verified; computing what the original does for n = 3, 8),
// or the error.
std::string Eliminated(const std::string& text) {
  return Outcome(Rewrite(text,
                         [](ir::Module& module, ir::Node& proc) {
                           ir::Node* loop = ir::Body(proc)[0];
                           return EliminateDeadCode(
                               module, ir::Cursor(module, ir::Body(*loop)[0]));
                         },
                         {{{"n", 3}}, {{"n", 8}}}));
}

TEST(EliminateDeadCode, AnAlwaysTrueIf) {
  EXPECT_EQ(Eliminated(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n
    (if (< i n) (then (assign (y i) (x i))) (else (assign (y i) 0.0))))))"),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 n (assign (y i) (x i))))\n");
}

TEST(EliminateDeadCode, AnAlwaysFalseIf) {
  EXPECT_EQ(Eliminated(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n
    (if (>= i n) (then (assign (y i) (x i))) (else (assign (y i) 0.0))))))"),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 n (assign (y i) 0.0)))\n");
}

TEST(EliminateDeadCode, ALoopThatNeverRuns) {
  EXPECT_EQ(Eliminated(R"((proc @f ((size n) (in x (f32 n)) (inout y (f32 n)))
  (for i 0 n
    (for j i (- i 1) (assign (y i) (x j))))))"),
            "(proc @f ((size n) (in x (f32 n)) (inout y (f32 n))) (for i 0 "
            "n))\n");
}

TEST(EliminateDeadCode, RejectsLiveCodeWithWitnesses) {
  EXPECT_EQ(Eliminated(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n
    (if (< i 2) (then (assign (y i) (x i))) (else (assign (y i) 0.0))))))"),
            "eliminate_dead_code: the condition of the if can hold (at n = 1, "
            "i = 0) and fail (at n = 3, i = 2)");
  EXPECT_EQ(Eliminated(R"((proc @f ((size n) (in x (f32 n)) (inout y (f32 n)))
  (for i 0 n
    (for j i n (assign (y i) (x j))))))"),
            "eliminate_dead_code: loop 'j' can run, from 0 to 1 (at n = 1, i = "
            "0)");
}

TEST(EliminateDeadCode, Spec) {
  PrimitiveSpec spec = EliminateDeadCodeSpec();
  EXPECT_EQ(spec.name, "eliminate_dead_code");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "stmt_cursor");
}

}  // namespace
}  // namespace tessel::primitives
