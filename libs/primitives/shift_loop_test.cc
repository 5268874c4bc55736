#include "libs/primitives/shift_loop.h"

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::OffsetPoint;
using testing::Outcome;
using testing::Rewrite;

constexpr char kSized[] = R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (assign (y i) (x i)))))";

// Shifts @f's first loop to start at `offset` (+ n when `plus_n`): the
// result's text (verified, and computing what the original does for
// n = 3, 8), or the error.
std::string Shifted(const std::string& text, int64_t offset, bool plus_n) {
  return Outcome(Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Node* start = OffsetPoint(module, proc, offset, plus_n);
        return ShiftLoop(module, ir::Cursor(module, ir::Body(proc)[0]), *start);
      },
      {{{"n", 3}}, {{"n", 8}}}));
}

// Exo's test_shift_loop: a loop from 0 moved to start at 1.
TEST(ShiftLoop, ToALiteral) {
  EXPECT_EQ(Shifted(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (assign (y i) (x i)))))",
                    1, false),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 1 (+ n 1) (assign (y (- i 1)) (x (- i 1)))))\n");
}

TEST(ShiftLoop, ToASymbolicPoint) {
  EXPECT_EQ(Shifted(kSized, -1, true),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i (- n 1) (- (* 2 n) 1) (assign (y (+ (- i n) 1)) (x (+ "
            "(- i n) 1)))))\n");
}

TEST(ShiftLoop, RejectsANegativeStart) {
  EXPECT_EQ(Shifted(kSized, -1, false),
            "shift_loop: the new lower bound of loop 'i' must be "
            "non-negative, but it can be -1");
  EXPECT_EQ(Shifted(kSized, -2, true),
            "shift_loop: the new lower bound of loop 'i' must be "
            "non-negative, but it can be -1 (at n = 1)");
}

TEST(ShiftLoop, Spec) {
  PrimitiveSpec spec = ShiftLoopSpec();
  EXPECT_EQ(spec.name, "shift_loop");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_EQ(spec.params[1].name, "new_lo");
}

}  // namespace
}  // namespace tessel::primitives
