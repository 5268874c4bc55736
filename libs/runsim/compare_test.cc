#include "libs/runsim/compare.h"

#include <cmath>

#include "gtest/gtest.h"

namespace tessel::runsim {
namespace {

HostTensor F32(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

TEST(CompareTest, AppliesAllcloseRule) {
  const Tolerance tolerance;
  HostTensor reference = F32({3}, {1, 100, 0});
  auto same = CompareTensors("y", reference, reference, tolerance);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->mismatches, 0);
  EXPECT_EQ(ComparisonLine("y", reference, reference, *same),
            "y: max abs diff 0, max rel diff 0 (3, f32): ok");

  // 100 + 0.0009 is within 1e-6 + 1e-5 * 100; 1e-6 from 0 is within atol.
  auto close = CompareTensors("y", F32({3}, {1, 100.0009f, 1e-6f}), reference,
                              tolerance);
  ASSERT_TRUE(close.ok());
  EXPECT_EQ(close->mismatches, 0);
  EXPECT_TRUE(std::isinf(close->max_rel_diff));

  HostTensor far = F32({3}, {1.5f, 100, 2e-6f});
  auto differs = CompareTensors("y", far, reference, tolerance);
  ASSERT_TRUE(differs.ok());
  EXPECT_EQ(differs->mismatches, 2);
  EXPECT_EQ(ComparisonLine("y", far, reference, *differs),
            "y: max abs diff 0.5, max rel diff inf (3, f32): mismatch in 2 of "
            "3 elements, first y[0]: 1.5 vs 1");
}

TEST(CompareTest, HandlesNaNsInfinitiesAndIntegers) {
  const float nan = NAN, inf = INFINITY;
  HostTensor reference = F32({2, 2}, {nan, inf, -inf, 0});
  auto same = CompareTensors("y", reference, reference, {});
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same->mismatches, 0);
  auto differs =
      CompareTensors("y", F32({2, 2}, {1, inf, inf, 0}), reference, {});
  ASSERT_TRUE(differs.ok());
  EXPECT_EQ(differs->mismatches, 2);
  EXPECT_TRUE(std::isnan(differs->max_abs_diff));
  EXPECT_EQ(differs->first_mismatch, 0);

  HostTensor a = *MakeHostTensor(ElemType::kI32, {2});
  HostTensor b = a;
  b.Set<int32_t>(1, 1);
  auto exact = CompareTensors("n", a, b, {1.0, 1.0});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->mismatches, 1);

  EXPECT_FALSE(CompareTensors("y", F32({2}, {}), F32({3}, {}), {}).ok());
  EXPECT_FALSE(CompareTensors("y", a, F32({2}, {}), {}).ok());
}

TEST(CompareTest, Summarises) {
  EXPECT_EQ(SummaryLine("y", F32({2, 2}, {1, -3.5f, 0.25f, 0})),
            "y: f32 2x2, sum -2.25, max abs 3.5");
  EXPECT_EQ(SummaryLine("s", F32({}, {2})), "s: f32 scalar, sum 2, max abs 2");
  EXPECT_EQ(ShapeText({2, 14, 14}), "2x14x14");
}

}  // namespace
}  // namespace tessel::runsim
