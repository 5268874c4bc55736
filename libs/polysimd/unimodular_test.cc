// The unimodular change of variables after compression: parallelograms
// become boxes, cut ones get a smaller box hull, boxes and sets that no
// change of variables improves are left alone.
#include "libs/polysimd/unimodular.h"

#include <optional>

#include "gtest/gtest.h"
#include "libs/poly/poly.h"

namespace tessel::polysimd {
namespace {

class UnimodularTest : public ::testing::Test {
 protected:
  std::optional<Unimodular> Find(const char* set, const char* known = "{ : }") {
    return FindUnimodular(isl::set(ctx_, set), isl::set(ctx_, known));
  }
  poly::Context context_;
  isl::ctx ctx_{context_.get()};
};

TEST_F(UnimodularTest, AParallelogramBecomesABox) {
  const char* known = "[N, K] -> { : N > 0 and K > 0 }";
  auto found =
      Find("[N, K] -> { [i, j] : 0 <= i < N and i <= j < i + K }", known);
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->reason, "its image is a box");
  EXPECT_TRUE(IsBoxOfItsBounds(found->transformed, isl::set(ctx_, known)));
  // The image is the parallelogram's points, one to one: back through the
  // inverse, the same set.
  isl::set back = found->transformed.apply(
      isl::map(isl::manage(isl_map_from_multi_aff(found->inverse.copy()))));
  EXPECT_TRUE(back.is_equal(
      isl::set(ctx_, "[N, K] -> { [i, j] : 0 <= i < N and i <= j < i + K }")));
}

TEST_F(UnimodularTest, ASkewedBandGetsTheSmallerBoxHull) {
  // Input-stationary sum pooling (testdata/polysimd/Inputs/pool.place):
  // w + r in a chunk of 4, cut by 0 <= w <= 13; no box in any variables,
  // but a box hull of 3 x 4 points instead of 6 x 3.
  auto found = Find(
      "[p] -> { [w, r] : 0 <= w <= 13 and 0 <= r <= 2 and 4p <= w + r <= 3 + "
      "4p }",
      "[p] -> { : 0 <= p <= 3 }");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->reason,
            "its image's fixed-size box hull has 12 points instead of 18");
}

TEST_F(UnimodularTest, LeavesBoxesAndLinesAlone) {
  EXPECT_FALSE(Find("[n] -> { [i, j] : 0 <= i < 8 and n <= j < n + 4 }")
                   .has_value());
  EXPECT_FALSE(Find("[n] -> { [i] : 0 <= i <= n }").has_value());
}

TEST_F(UnimodularTest, LeavesWhatNoChangeImproves) {
  // A triangle has no fixed-size box hull in any variables.
  EXPECT_FALSE(Find("[n] -> { [i, j] : 0 <= i and 0 <= j and i + j <= n }",
                    "[n] -> { : n >= 0 }")
                   .has_value());
  // A box cut at one corner: only permutations of its variables are
  // unimodular among its normals, and the diagonal's completions do not
  // shrink its box hull.
  EXPECT_FALSE(
      Find("{ [i, j] : 0 <= i <= 3 and 0 <= j <= 3 and i + j <= 5 }")
          .has_value());
}

}  // namespace
}  // namespace tessel::polysimd
