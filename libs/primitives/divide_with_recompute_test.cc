#include "libs/primitives/divide_with_recompute.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// divide_with_recompute of the first statement (a loop) of the proc of
// `text` into `outer_hi` tiles of `stride`, run with n = 10 and n = 13.
std::string Divided(const std::string& text, int64_t outer_hi,
                    int64_t stride) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return DivideWithRecompute(module, StmtAt(module, proc, {0}),
                                   *ir::Build::Int(module, outer_hi), stride,
                                   {"io", "ii"});
      },
      {{{"n", 10}}, {{"n", 13}}}));
}

constexpr char kCopy[] = R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (>= n 8))
  (for i 0 n (assign (y i) (* (x i) 2.0))))
)";

// Exo's test_divide_with_recompute: 2 tiles of 4, each with the
// remainder.
TEST(DivideWithRecompute, CoversTheLoopWithOverlappingTiles) {
  EXPECT_EQ(Divided(kCopy, 2, 4),
            R"((proc @f ((size n) (in x (f32 n)) (out y (f32 n)))
  (assert (>= n 8))
  (for io 0 2
    (for ii 0 (- n 4) (assign (y (+ (* 4 io) ii)) (* (x (+ (* 4 io) ii)) 2.0)))))
)");
}

// Exo's test_divide_with_recompute_fail_outer_hi_too_big.
TEST(DivideWithRecompute, RejectsTilesBeyondTheLoop) {
  EXPECT_EQ(Divided(kCopy, 3, 4),
            "divide_with_recompute: 3 tiles of 4 do not cover the loop's 8 "
            "iterations (at n = 8)");
}

// Exo's test_divide_with_recompute_fail_not_idempotent.
TEST(DivideWithRecompute, RejectsABodyThatIsNotIdempotent) {
  EXPECT_EQ(Divided("(proc @f ((size n) (in x (f32 n)) (inout s f32))\n"
                    "  (assert (>= n 8))\n"
                    "  (for i 0 n (reduce s (x i))))\n",
                    2, 4),
            "divide_with_recompute: the body is not idempotent: n = 8: "
            "instances (i = 0) and (i = 0) both access s: both reduce");
}

// y[i] = y[i + 1] run again after y[i + 1] changed would read the new
// value.
TEST(DivideWithRecompute, RejectsIterationsThatDoNotCommute) {
  EXPECT_EQ(Divided("(proc @f ((size n) (inout y (f32 (+ n 1))))\n"
                    "  (assert (>= n 8))\n"
                    "  (for i 0 n (assign (y i) (y (+ i 1)))))\n",
                    2, 4),
            "divide_with_recompute: the body is not idempotent: n = 8: "
            "instances (i = 1) and (i = 0) both access y[1]: the first "
            "writes, the second reads");
}

}  // namespace
}  // namespace tessel::primitives
