#include "libs/egraph/big_vector.h"

#include <cstdint>
#include <utility>

#include "gtest/gtest.h"

namespace tessel::egraph {
namespace {

uint32_t Value(uint32_t i) { return i ^ 0x5a5a5a5au; }

TEST(BigVectorTest, GrowsPastMappedBlocksAndKeepsItsValues) {
  // 3 million elements cross the mapped-block threshold and then grow a
  // mapped block several times (in place or by moving its pages).
  BigVector<uint32_t> v;
  for (uint32_t i = 0; i < 3'000'000; ++i) v.push_back(Value(i));
  ASSERT_EQ(v.size(), 3'000'000u);
  EXPECT_GE(v.capacity(), v.size());
  for (uint32_t i = 0; i < v.size(); ++i) ASSERT_EQ(v[i], Value(i)) << i;
  v.clear();
  EXPECT_TRUE(v.empty());
}

TEST(BigVectorTest, PushBackOfItsOwnElementWhileGrowing) {
  BigVector<uint64_t> v;
  v.push_back(7);
  while (v.size() < v.capacity()) v.push_back(v.back() + 1);
  v.push_back(v[0]);  // reallocates; the argument lived in the old buffer
  EXPECT_EQ(v.back(), 7u);
}

TEST(BigVectorTest, AppendEraseCopyAndMove) {
  BigVector<uint32_t> v;
  const uint32_t more[] = {1, 2, 3, 4, 5};
  v.append(std::begin(more), std::end(more));
  v.erase(v.begin() + 1, v.begin() + 3);  // 1 4 5
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[1], 4u);
  EXPECT_EQ(v[2], 5u);

  BigVector<uint32_t> copy = v;
  copy.push_back(6);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_EQ(copy.size(), 4u);

  BigVector<uint32_t> moved = std::move(copy);
  EXPECT_EQ(moved.size(), 4u);
  EXPECT_EQ(moved.back(), 6u);
  EXPECT_TRUE(copy.empty());  // NOLINT: moved-from is empty, by contract

  v = moved;
  EXPECT_EQ(v.size(), 4u);
  moved = std::move(v);
  EXPECT_EQ(moved[3], 6u);
}

TEST(BigVectorTest, CopiesOfMappedVectorsAreIndependent) {
  BigVector<uint64_t> v;
  for (int i = 0; i < 600'000; ++i) v.push_back(3);  // a mapped block
  BigVector<uint64_t> copy = v;
  copy[0] = 4;
  EXPECT_EQ(v[0], 3u);
  EXPECT_EQ(copy[599'999], 3u);
}

}  // namespace
}  // namespace tessel::egraph
