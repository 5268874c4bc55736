#include "libs/primitives/cut_loop.h"

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

// Cuts @f's first loop at `offset` (+ n when `plus_n`): the result's text
// (verified, and computing what the original does for n = 3, 8), or the
// error.
std::string Cut(const std::string& text, int64_t offset, bool plus_n) {
  return Outcome(Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Node* cut = OffsetPoint(module, proc, offset, plus_n);
        return CutLoop(module, ir::Cursor(module, ir::Body(proc)[0]), *cut)
            .status();
      },
      {{{"n", 3}}, {{"n", 8}}}));
}

TEST(CutLoop, AtALiteral) {
  EXPECT_EQ(Cut(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (>= n 3))
  (for i 0 n (assign (y i) (x i)))))",
                2, false),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (assert (>= n 3))\n"
            "  (for i 0 2 (assign (y i) (x i)))\n"
            "  (for i 2 n (assign (y i) (x i))))\n");
}

TEST(CutLoop, AtASymbolicPoint) {
  EXPECT_EQ(Cut(kSized, -1, true),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 (- n 1) (assign (y i) (x i)))\n"
            "  (for i (- n 1) n (assign (y i) (x i))))\n");
}

TEST(CutLoop, RejectsAPointOutsideWithAWitness) {
  const std::string outside =
      "cut_loop: the cut point of loop 'i' must lie between its bounds, but "
      "it can be 2 with bounds 0 and 1 (at n = 1)";
  EXPECT_EQ(Cut(kSized, 2, false), outside);
  EXPECT_EQ(Cut(kSized, 1, true), outside);
}

TEST(CutLoop, Spec) {
  PrimitiveSpec spec = CutLoopSpec();
  EXPECT_EQ(spec.name, "cut_loop");
  ASSERT_EQ(spec.params.size(), 2u);
  EXPECT_EQ(spec.params[1].name, "cut_point");
}

}  // namespace
}  // namespace tessel::primitives
