#include "libs/primitives/divide_loop.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gtest/gtest.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::Rewrite;
using testing::Sizes;

// The first statement of @f's body (the loop to divide).
ir::Cursor FirstLoop(ir::Module& module) {
  ir::Node& proc = ProcNamed(module, "@f");
  return ir::Cursor(module, ir::Body(proc)[0]);
}

// Divides @f's first loop of `text`; checks that the result verifies and
// computes what the original does for each of `sizes` (values of n), and
// returns its text, or the error.
std::string Divided(const std::string& text, int64_t quot, TailStrategy tail,
                    bool perfect = false, std::vector<int64_t> sizes = {}) {
  std::vector<Sizes> runs;
  for (int64_t n : sizes) runs.push_back({{"n", n}});
  if (runs.empty()) runs.push_back({});  // literal sizes
  return Outcome(Rewrite(
      text,
      [&](ir::Module& module, ir::Node&) {
        absl::StatusOr<DividedLoop> divided = DivideLoop(
            module, FirstLoop(module), quot, "io", "ii", tail, perfect);
        if (!divided.ok()) return divided.status();
        EXPECT_EQ(divided->outer.node(), FirstLoop(module).node());
        return absl::OkStatus();
      },
      runs));
}

constexpr char kTen[] = R"((proc @f ((in x (f32 10)) (out y (f32 10)))
  (for i 0 10 (assign (y i) (* (x i) 2.0)))))";

constexpr char kSized[] = R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for i 0 n (assign (y i) (* (x i) 2.0)))))";

// Exo's test_divide_loop cases: a literal count with each tail.
TEST(DivideLoop, GuardsALiteralRemainder) {
  EXPECT_EQ(Divided(kTen, 4, TailStrategy::kGuard),
            "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
            "  (for io 0 3\n"
            "    (for ii 0 4\n"
            "      (if (< (+ (* 4 io) ii) 10)\n"
            "        (then (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) "
            "2.0)))))))\n");
}

TEST(DivideLoop, NoGuardWhenALiteralCountDivides) {
  EXPECT_EQ(
      Divided(kTen, 5, TailStrategy::kGuard),
      "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
      "  (for io 0 2\n"
      "    (for ii 0 5 (assign (y (+ (* 5 io) ii)) (* (x (+ (* 5 io) ii)) "
      "2.0)))))\n");
}

// A guarded loop that never runs keeps its guard, as a cut keeps its empty
// tail: a schedule finds the same guarded loop at every size.
TEST(DivideLoop, GuardKeptOnALoopOfNoIterations) {
  EXPECT_EQ(Divided(R"((proc @f ((inout y (f32 10)))
  (for i 0 0 (assign (y (+ i 10)) 2.0))))",
                    4, TailStrategy::kGuard),
            "(proc @f ((inout y (f32 10)))\n"
            "  (for io 0 0\n"
            "    (for ii 0 4\n"
            "      (if (< (+ (* 4 io) ii) 0) (then (assign (y (+ (+ (* 4 io) "
            "ii) 10)) 2.0))))))\n");
}

TEST(DivideLoop, CutsALiteralRemainder) {
  // A literal remainder needs no guard around the tail: both cut it so.
  const std::string cut =
      "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
      "  (for io 0 2\n"
      "    (for ii 0 4 (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) "
      "2.0))))\n"
      "  (for ii 0 2 (assign (y (+ ii 8)) (* (x (+ ii 8)) 2.0))))\n";
  EXPECT_EQ(Divided(kTen, 4, TailStrategy::kCut), cut);
  EXPECT_EQ(Divided(kTen, 4, TailStrategy::kCutAndGuard), cut);
}

// A cut keeps its tail where a literal count leaves none, as a loop of no
// iterations (Exo's N % q), so that a schedule finds it at every size;
// `perfect` has none.
TEST(DivideLoop, CutKeepsAnEmptyTailOfALiteralCount) {
  const std::string cut =
      "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
      "  (for io 0 2\n"
      "    (for ii 0 5 (assign (y (+ (* 5 io) ii)) (* (x (+ (* 5 io) ii)) "
      "2.0))))\n"
      "  (for ii 0 0 (assign (y (+ ii 10)) (* (x (+ ii 10)) 2.0))))\n";
  EXPECT_EQ(Divided(kTen, 5, TailStrategy::kCut), cut);
  EXPECT_EQ(Divided(kTen, 5, TailStrategy::kCutAndGuard), cut);
  EXPECT_EQ(
      Divided(kTen, 5, TailStrategy::kCut, true),
      "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
      "  (for io 0 2\n"
      "    (for ii 0 5 (assign (y (+ (* 5 io) ii)) (* (x (+ (* 5 io) ii)) "
      "2.0)))))\n");
}

// The tail's copy of an alloc is the one its copied statements use.
TEST(DivideLoop, CutsABodyWithATemporary) {
  EXPECT_EQ(
      Divided("(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
              "  (for i 0 10 (alloc t f32) (assign t (x i)) (assign (y i) "
              "t)))\n",
              4, TailStrategy::kCutAndGuard),
      "(proc @f ((in x (f32 10)) (out y (f32 10)))\n"
      "  (for io 0 2\n"
      "    (for ii 0 4\n"
      "      (alloc t f32)\n"
      "      (assign t (x (+ (* 4 io) ii)))\n"
      "      (assign (y (+ (* 4 io) ii)) t)))\n"
      "  (for ii 0 2 (alloc t f32) (assign t (x (+ ii 8))) (assign (y (+ ii "
      "8)) t)))\n");
}

TEST(DivideLoop, SymbolicSizes) {
  const std::vector<int64_t> sizes = {1, 7, 16, 17};
  EXPECT_EQ(Divided(kSized, 4, TailStrategy::kGuard, false, sizes),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for io 0 (/ (+ n 3) 4)\n"
            "    (for ii 0 4\n"
            "      (if (< (+ (* 4 io) ii) n)\n"
            "        (then (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) "
            "2.0)))))))\n");
  EXPECT_EQ(
      Divided(kSized, 4, TailStrategy::kCut, false, sizes),
      "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
      "  (for io 0 (/ n 4)\n"
      "    (for ii 0 4 (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) "
      "2.0))))\n"
      "  (for ii 0 (% n 4)\n"
      "    (assign (y (+ (* 4 (/ n 4)) ii)) (* (x (+ (* 4 (/ n 4)) ii)) "
      "2.0))))\n");
  EXPECT_EQ(
      Divided(kSized, 4, TailStrategy::kCutAndGuard, false, sizes),
      "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
      "  (for io 0 (/ n 4)\n"
      "    (for ii 0 4 (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) "
      "2.0))))\n"
      "  (if (> (% n 4) 0)\n"
      "    (then\n"
      "      (for ii 0 (% n 4)\n"
      "        (assign (y (+ (* 4 (/ n 4)) ii)) (* (x (+ (* 4 (/ n 4)) "
      "ii)) 2.0))))))\n");
}

// The loop runs from 3; y[0..2] are kept (inout).
TEST(DivideLoop, NonZeroLowerBound) {
  EXPECT_EQ(Divided(R"((proc @f ((in x (f32 10)) (inout y (f32 10)))
  (for i 3 10 (assign (y i) (x i)))))",
                    2, TailStrategy::kCut),
            "(proc @f ((in x (f32 10)) (inout y (f32 10)))\n"
            "  (for io 0 3\n"
            "    (for ii 0 2 (assign (y (+ (+ (* 2 io) ii) 3)) (x (+ (+ (* 2 "
            "io) ii) 3)))))\n"
            "  (for ii 0 1 (assign (y (+ ii 9)) (x (+ ii 9)))))\n");
}

TEST(DivideLoop, PerfectIsProvenFromAssertions) {
  EXPECT_EQ(Divided(R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (== (% n 4) 0))
  (for i 0 n (assign (y i) (x i)))))",
                    4, TailStrategy::kGuard, true, {8, 16}),
            "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (assert (== (% n 4) 0))\n"
            "  (for io 0 (/ n 4)\n"
            "    (for ii 0 4 (assign (y (+ (* 4 io) ii)) (x (+ (* 4 io) "
            "ii))))))\n");
}

TEST(DivideLoop, PerfectRejectsWithAWitness) {
  EXPECT_EQ(Divided(kSized, 4, TailStrategy::kGuard, true),
            "divide_loop: cannot divide loop 'i' perfectly by 4: its trip "
            "count can be 1 (at n = 1)");
  EXPECT_EQ(Divided(kTen, 4, TailStrategy::kCut, true),
            "divide_loop: cannot divide loop 'i' perfectly by 4: its trip "
            "count can be 10");
}

// A loop whose bounds can cross runs no times; a cut tail would run
// N % q times there. The guard is right for every n.
TEST(DivideLoop, CutRejectsACrossedLoop) {
  const std::string text =
      R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (for j 0 (- n 5) (assign (y j) (x j)))
  (for i 0 n (assign (y i) (x i)))))";
  EXPECT_EQ(Divided(text, 4, TailStrategy::kCut),
            "divide_loop: cannot cut the tail of loop 'j': its upper bound can "
            "be below its lower bound, by 4 (at n = 1)");
  EXPECT_EQ(
      Divided(text, 4, TailStrategy::kGuard, false, {1, 6, 13}),
      "(proc @f ((size n) (in x (f32 n)) (out y (f32 n)))\n"
      "  (for io 0 (- (/ (+ n 2) 4) 1)\n"
      "    (for ii 0 4\n"
      "      (if (< (+ (* 4 io) ii) (- n 5))\n"
      "        (then (assign (y (+ (* 4 io) ii)) (x (+ (* 4 io) ii)))))))\n"
      "  (for i 0 n (assign (y i) (x i))))\n");
}

TEST(DivideLoop, RejectsBadArguments) {
  ir::Module module = ReadVerified(kTen);
  auto message = [&](int64_t quot, const std::string& outer,
                     const std::string& inner) {
    return std::string(DivideLoop(module, FirstLoop(module), quot, outer, inner,
                                  TailStrategy::kGuard, false)
                           .status()
                           .message());
  };
  EXPECT_EQ(message(4, "i", "ii"),
            "divide_loop: the new name 'i' is already used in the proc");
  EXPECT_EQ(message(4, "io", "x"),
            "divide_loop: the new name 'x' is already used in the proc");
  EXPECT_EQ(message(4, "io", "2a"), "divide_loop: '2a' is not a name");
  EXPECT_EQ(message(0, "io", "ii"),
            "divide_loop: div_const must be positive, not 0");
  EXPECT_EQ(message(4, "io", "io"),
            "divide_loop: the two new names must differ");
  EXPECT_EQ(Print(module), Print(ReadVerified(kTen)));
  EXPECT_EQ(ParseTailStrategy("perfect").status().message(),
            "divide_loop: tail must be \"guard\", \"cut\" or "
            "\"cut_and_guard\", not \"perfect\"");
}

TEST(DivideLoop, SpecHasExoParameters) {
  PrimitiveSpec spec = DivideLoopSpec();
  EXPECT_EQ(spec.name, "divide_loop");
  ASSERT_EQ(spec.params.size(), 5u);
  EXPECT_EQ(spec.params[0].name, "loop_cursor");
  EXPECT_EQ(spec.params[3].default_text, "\"guard\"");
  EXPECT_EQ(spec.params[4].default_text, "False");
}

}  // namespace
}  // namespace tessel::primitives
