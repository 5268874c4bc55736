#include "libs/primitives/mult_loops.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Outcome;
using testing::StmtAt;

// mult_loops of the nest that opens the proc of `text`, for n = 5 and 1.
std::string Multiplied(const std::string& text, const std::string& name = "k") {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return MultLoops(module, StmtAt(module, proc, {0}), name).status();
      },
      {{{"n", 5}}, {{"n", 1}}}));
}

// Exo's test_mult_loops.
TEST(MultLoops, MultipliesANestWithALiteralInnerTripCount) {
  EXPECT_EQ(Multiplied("(proc @f ((size n) (inout x (f32 n 3)))\n"
                       "  (for i 0 n (for j 0 3 (reduce (x i j) 1.0))))\n"),
            "(proc @f ((size n) (inout x (f32 n 3)))\n"
            "  (for k 0 (* 3 n) (reduce (x (/ k 3) (% k 3)) 1.0)))\n");
}

TEST(MultLoops, KeepsTheLowerBounds) {
  EXPECT_EQ(Multiplied("(proc @f ((size n) (inout x (f32 (+ n 1) 4)))\n"
                       "  (for i 1 (+ n 1) (for j 2 4 (reduce (x i j) 1.0))))\n"),
            "(proc @f ((size n) (inout x (f32 (+ n 1) 4)))\n"
            "  (for k 0 (* 2 n) (reduce (x (+ (/ k 2) 1) (+ (% k 2) 2)) 1.0)))\n");
}

// The body's alloc and its uses move together (found by the randomized
// schedule test: copied apart, the uses were left unbound).
TEST(MultLoops, KeepsAnAllocOfTheBody) {
  EXPECT_EQ(Multiplied("(proc @f ((size n) (inout x (f32 n 3)))\n"
                       "  (for i 0 n (for j 0 3 (alloc t f32) "
                       "(assign t (x i j)) (assign (x i j) (* 2.0 t)))))\n"),
            "(proc @f ((size n) (inout x (f32 n 3)))\n"
            "  (for k 0 (* 3 n)\n"
            "    (alloc t f32)\n"
            "    (assign t (x (/ k 3) (% k 3)))\n"
            "    (assign (x (/ k 3) (% k 3)) (* 2.0 t))))\n");
}

TEST(MultLoops, RejectsASymbolicInnerTripCount) {
  EXPECT_EQ(Multiplied("(proc @f ((size n) (inout x (f32 n n)))\n"
                       "  (for i 0 n (for j 0 n (reduce (x i j) 1.0))))\n"),
            "mult_loops: the trip count of the inner loop 'j' must be a "
            "positive literal");
}

TEST(MultLoops, Spec) { EXPECT_EQ(MultLoopsSpec().name, "mult_loops"); }

}  // namespace
}  // namespace tessel::primitives
