#include "libs/egraph/segmented_vector.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/huge_pages.h"

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

TEST(HugePagesTest, BigVectorsGrowAndKeepTheirValues) {
  // Crosses the huge-page threshold several times.
  BigVector<uint32_t> v;
  for (uint32_t i = 0; i < 3'000'000; ++i) v.push_back(i ^ 0x5a5a5a5au);
  for (uint32_t i = 0; i < 3'000'000; i += 4099) {
    ASSERT_EQ(v[i], i ^ 0x5a5a5a5au);
  }
  v.clear();
  v.shrink_to_fit();
  EXPECT_TRUE(v.empty());
}

}  // namespace
}  // namespace tessel::egraph
