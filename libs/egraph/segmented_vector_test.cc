#include "libs/egraph/segmented_vector.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace tessel::egraph {
namespace {

TEST(SegmentedVectorTest, ElementsStayPutAcrossSegments) {
  SegmentedVector<uint64_t> v;
  const size_t n = 3 * SegmentedVector<uint64_t>::kFirstSize + 17;
  std::vector<const uint64_t*> addresses;
  for (size_t i = 0; i < n; ++i) {
    v.emplace_back() = i * 7;
    addresses.push_back(&v[i]);
  }
  v.GrowTo(40 * SegmentedVector<uint64_t>::kFirstSize);  // more segments
  EXPECT_EQ(v.size(), 40 * SegmentedVector<uint64_t>::kFirstSize);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(v[i], i * 7) << i;
    EXPECT_EQ(&v[i], addresses[i]) << i;  // never moved
  }
  EXPECT_EQ(v[n], 0u);  // value-initialized
  EXPECT_EQ(v[v.size() - 1], 0u);
}

TEST(SegmentedVectorTest, GrowingIntoAReservedSegmentKeepsItsElements) {
  // Segments are reserved whole and filled as the vector grows: growing to
  // the middle of one and on past it must neither move nor reset elements.
  constexpr size_t kFirst = SegmentedVector<uint64_t>::kFirstSize;
  SegmentedVector<uint64_t> v;
  v.GrowTo(5 * kFirst / 2);  // the middle of the third segment
  v[5 * kFirst / 2 - 1] = 42;
  const uint64_t* last = &v[5 * kFirst / 2 - 1];
  v.emplace_back() = 43;
  v.GrowTo(9 * kFirst);
  EXPECT_EQ(v.size(), 9 * kFirst);
  EXPECT_EQ(&v[5 * kFirst / 2 - 1], last);
  EXPECT_EQ(v[5 * kFirst / 2 - 1], 42u);
  EXPECT_EQ(v[5 * kFirst / 2], 43u);
  EXPECT_EQ(v[5 * kFirst / 2 + 1], 0u);
  v.GrowTo(kFirst);  // never shrinks
  EXPECT_EQ(v.size(), 9 * kFirst);
}

}  // namespace
}  // namespace tessel::egraph
