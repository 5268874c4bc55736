#include "libs/runsim/seeded_inputs.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tessel::runsim {
namespace {

TEST(SeededInputsTest, IsDeterministicAndDocumented) {
  // SplitMix64's published first output for state 0.
  uint64_t state = 0;
  EXPECT_EQ(SplitMix64(state), 0xe220a8397b1dcdafull);
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cull);

  auto a = SeededTensor(5, "A", ElemType::kF32, {3, 4});
  auto again = SeededTensor(5, "A", ElemType::kF32, {3, 4});
  auto other = SeededTensor(5, "B", ElemType::kF32, {3, 4});
  ASSERT_TRUE(a.ok() && again.ok() && other.ok());
  EXPECT_EQ(a->bytes, again->bytes);
  EXPECT_NE(a->bytes, other->bytes);
  state = 5 ^ Fnv1a64("A");
  const uint64_t z = SplitMix64(state);
  EXPECT_EQ(
      a->Get<float>(0),
      static_cast<float>(std::ldexp(static_cast<double>(z >> 40), -23) - 1.0));
}

TEST(SeededInputsTest, StaysInRange) {
  auto i8 = SeededTensor(1, "x", ElemType::kI8, {1000});
  auto i32 = SeededTensor(1, "x", ElemType::kI32, {1000});
  auto f64 = SeededTensor(1, "x", ElemType::kF64, {1000});
  ASSERT_TRUE(i8.ok() && i32.ok() && f64.ok());
  bool saw_min = false, saw_max = false;
  for (int i = 0; i < 1000; ++i) {
    EXPECT_GE(i8->Get<int8_t>(i), -8);
    EXPECT_LE(i8->Get<int8_t>(i), 8);
    saw_min |= i8->Get<int8_t>(i) == -8;
    saw_max |= i8->Get<int8_t>(i) == 8;
    EXPECT_GE(i32->Get<int32_t>(i), -64);
    EXPECT_LE(i32->Get<int32_t>(i), 64);
    EXPECT_GE(f64->Get<double>(i), -1.0);
    EXPECT_LT(f64->Get<double>(i), 1.0);
  }
  EXPECT_TRUE(saw_min && saw_max);
  EXPECT_FALSE(SeededTensor(1, "x", ElemType::kF32, {1 << 20, 1 << 20}).ok());
}

TEST(SeededInputsTest, F16StepsBy2ToTheMinus10) {
  auto f16 = SeededTensor(3, "h", ElemType::kF16, {4000});
  ASSERT_TRUE(f16.ok());
  EXPECT_EQ(f16->bytes.size(), 8000u);
  uint64_t state = 3 ^ Fnv1a64("h");
  EXPECT_EQ(f16->GetDouble(0),
            std::ldexp(static_cast<double>(SplitMix64(state) >> 53), -10) - 1);
  bool saw_min = false;
  for (int i = 0; i < 4000; ++i) {
    const double value = f16->GetDouble(i);
    EXPECT_GE(value, -1.0);
    EXPECT_LT(value, 1.0);
    EXPECT_EQ(std::ldexp(value, 10), std::trunc(std::ldexp(value, 10)));
    saw_min |= value == -1.0;
  }
  EXPECT_TRUE(saw_min);
}

}  // namespace
}  // namespace tessel::runsim
