#include "libs/poly/box.h"

#include <cstdint>
#include <limits>
#include <vector>

#include "gtest/gtest.h"

namespace tessel::poly {
namespace {

std::optional<Interval> Range(std::vector<int64_t> coeffs, int64_t constant,
                              std::vector<int64_t> extents) {
  return RangeOnBox(coeffs, constant, extents);
}

TEST(BoxTest, RangeIsReachedAtCorners) {
  // 2i - j + 3 on 0 <= i < 4, 0 <= j < 5: from 3 - 4 to 3 + 6.
  auto range = Range({2, -1}, 3, {4, 5});
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->low, -1);
  EXPECT_EQ(range->high, 9);
}

TEST(BoxTest, ConstantsAndUnreadVariables) {
  auto range = Range({0, 0}, 7, {0, 3});
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->low, 7);
  EXPECT_EQ(range->high, 7);
  EXPECT_FALSE(Range({1}, 0, {0}).has_value());  // an empty box
}

TEST(BoxTest, HighRankIsLinear) {
  std::vector<int64_t> coeffs(300, 1);
  std::vector<int64_t> extents(300, 2);
  auto range = Range(coeffs, 0, extents);
  ASSERT_TRUE(range.has_value());
  EXPECT_EQ(range->high, 300);
}

TEST(BoxTest, OverflowIsNoAnswer) {
  int64_t big = std::numeric_limits<int64_t>::max();
  EXPECT_FALSE(Range({big}, 0, {big}).has_value());
  EXPECT_FALSE(Range({int64_t{1} << 61, int64_t{1} << 61}, 0, {2, 2}));
  EXPECT_FALSE(Range({}, big, {}).has_value());
}

}  // namespace
}  // namespace tessel::poly
