#include "libs/primitives/mult_dim.h"

#include <cstdint>
#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::DeclNamed;
using testing::Outcome;

// mult_dim of the alloc t of the proc of `text`, for n = 3 and 1.
std::string Merged(const std::string& text, int64_t hi, int64_t lo) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return MultDim(module, DeclNamed(module, proc, "t"), hi, lo);
      },
      {{{"n", 3}}, {{"n", 1}}}));
}

constexpr char kText[] = R"((proc @p ((size n) (in x (f32 n 4)) (out y (f32 n 4)))
  (alloc t (f32 n 4))
  (for i 0 n (for j 0 4 (assign (t i j) (x i j))))
  (for i 0 n (for j 0 4 (assign (y i j) (t i (- 3 j))))))
)";

// Exo's test_mult_dim.
TEST(MultDim, MergesTwoDimensions) {
  EXPECT_EQ(Merged(kText, 0, 1),
            R"((proc @p ((size n) (in x (f32 n 4)) (out y (f32 n 4)))
  (alloc t (f32 (* 4 n)))
  (for i 0 n (for j 0 4 (assign (t (+ (* 4 i) j)) (x i j))))
  (for i 0 n (for j 0 4 (assign (y i j) (t (+ (- (* 4 i) j) 3))))))
)");
}

TEST(MultDim, RejectsASymbolicLowerDimension) {
  EXPECT_EQ(Merged(kText, 1, 0),
            "mult_dim: the lower dimension 0 of 't' must be a literal");
}

TEST(MultDim, Spec) { EXPECT_EQ(MultDimSpec().name, "mult_dim"); }

}  // namespace
}  // namespace tessel::primitives
