#include "libs/runsim/compare.h"

#include <cmath>
#include <vector>

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

TEST(CompareTest, RoundingBoundsPassElementsOutsideTheTolerance) {
  const Tolerance tolerance;
  HostTensor reference = F32({3}, {1, 0, 0});
  HostTensor actual = F32({3}, {1.5f, 1e-3f, 2e-3f});
  // y[0] within its bound, y[1] not, y[2] has none.
  const std::vector<double> bounds = {0.5, 1e-4, NAN};
  auto compared = CompareTensors("y", actual, reference, tolerance, bounds);
  ASSERT_TRUE(compared.ok());
  EXPECT_EQ(compared->mismatches, 2);
  EXPECT_EQ(compared->within_rounding_bound, 1);
  EXPECT_EQ(ComparisonLine("y", actual, reference, *compared),
            "y: max abs diff 0.5, max rel diff inf (3, f32): mismatch in 2 of "
            "3 elements, first y[1]: 0.00100000005 vs 0 (1 other within the "
            "rounding bound)");
  const std::vector<double> loose = {0.5, 1.5e-3, 2.5e-3};
  auto passes = CompareTensors("y", actual, reference, tolerance, loose);
  ASSERT_TRUE(passes.ok());
  EXPECT_EQ(ComparisonLine("y", actual, reference, *passes),
            "y: max abs diff 0.5, max rel diff inf (3, f32): ok, 3 elements "
            "within the rounding bound");
  // A bound per element, or none.
  const std::vector<double> short_bounds = {0.5};
  EXPECT_FALSE(
      CompareTensors("y", actual, reference, tolerance, short_bounds).ok());
}

TEST(CompareTest, F16HasItsOwnDefaultsAndDigits) {
  EXPECT_EQ(DefaultTolerance(ElemType::kF16).rtol, 1e-3);
  EXPECT_EQ(DefaultTolerance(ElemType::kF32).rtol, 1e-5);
  EXPECT_EQ(DefaultTolerance(ElemType::kF64).atol, 1e-6);
  auto f16 = [](std::vector<uint16_t> encodings) {
    HostTensor tensor = *MakeHostTensor(
        ElemType::kF16, {static_cast<int64_t>(encodings.size())});
    for (size_t i = 0; i < encodings.size(); ++i) {
      tensor.Set<uint16_t>(i, encodings[i]);
    }
    return tensor;
  };
  // 1 + 2^-9 (two units in the last place) is within atol + rtol of 1 by
  // default; 1 + 3 * 2^-10 is not, and 1 + 2^-10 is not with --rtol 0
  // --atol 0.
  HostTensor reference = f16({0x3c00, 0x3c00});
  auto close = CompareTensors("h", f16({0x3c02, 0x3c00}), reference, {});
  ASSERT_TRUE(close.ok());
  EXPECT_EQ(close->mismatches, 0);
  HostTensor far = f16({0x3c03, 0x3c00});
  auto differs = CompareTensors("h", far, reference, {});
  ASSERT_TRUE(differs.ok());
  EXPECT_EQ(differs->mismatches, 1);
  // Five digits tell f16 values apart.
  EXPECT_EQ(ComparisonLine("h", far, reference, *differs),
            "h: max abs diff 0.00292969, max rel diff 0.00292969 (2, f16): "
            "mismatch in 1 of 2 elements, first h[0]: 1.0029 vs 1");
  auto exact =
      CompareTensors("h", f16({0x3c01, 0x3c00}), reference, {0.0, 0.0});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(exact->mismatches, 1);
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
