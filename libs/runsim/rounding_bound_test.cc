#include "libs/runsim/rounding_bound.h"

#include <cmath>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "libs/support/source.h"
#include "libs/verify/read.h"

namespace tessel::runsim {
namespace {

// Subtractions and negations of floats, a negative literal, an integer
// made a float, and a subtraction of indices, which stays one.
constexpr char kSigned[] =
    "(proc @f ((in a (f32 2)) (in b (f32 2)) (in k (i32 2))\n"
    "          (out y (f32 2)))\n"
    "  (for i 0 2\n"
    "    (assign (y i) (+ (- (* -2.0 (a (- 1 i))) (neg (b i)))\n"
    "                     (cast f32 (k i))))))\n";

HostTensor Vector(ElemType elem, const std::vector<double>& values) {
  auto tensor = MakeHostTensor(elem, {static_cast<int64_t>(values.size())});
  EXPECT_TRUE(tensor.ok());
  for (size_t i = 0; i < values.size(); ++i) {
    if (elem == ElemType::kF64) {
      tensor->Set<double>(i, values[i]);
    } else {
      tensor->Set<float>(i, static_cast<float>(values[i]));
    }
  }
  return *std::move(tensor);
}

std::vector<double> Values(const HostTensor& tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    values.push_back(tensor.GetDouble(i));
  }
  return values;
}

// `kSigned` rewritten for `magnitude`, run on a = (-1, 3), b = (2, -5)
// mapped for it and k = (5, -7).
std::vector<double> RunRewritten(Magnitude magnitude) {
  auto module = ir::ReadModule(MakeSource("m.tir", kSigned));
  EXPECT_TRUE(module.ok()) << module.status();
  if (!module.ok()) return {};
  RewriteForMagnitudes(*module, magnitude);
  auto program = Program::Compile(*module, *module->Find("@f"));
  EXPECT_TRUE(program.ok()) << program.status();
  if (!program.ok()) return {};
  TensorMap inputs = {{"a", Vector(ElemType::kF32, {-1, 3})},
                      {"b", Vector(ElemType::kF32, {2, -5})}};
  MapInputsForMagnitude(inputs, magnitude);
  auto k = MakeHostTensor(ElemType::kI32, {2});
  EXPECT_TRUE(k.ok());
  if (!k.ok()) return {};
  k->Set<int32_t>(0, 5);
  k->Set<int32_t>(1, -7);
  inputs["k"] = *std::move(k);
  auto outputs = program->Run({}, inputs);
  EXPECT_TRUE(outputs.ok()) << outputs.status();
  if (!outputs.ok()) return {};
  return Values(outputs->at("y"));
}

TEST(RoundingBoundTest, AbsoluteSumsAddTheTermsMagnitudes) {
  // y[0] = -2 a[1] + b[0] + k[0]: 2 * 3 + 2 + 5; y[1] = -2 a[0] + b[1]
  // + k[1]: 2 * 1 + 5 + 7.
  EXPECT_EQ(RunRewritten(Magnitude::kAbsoluteSum),
            (std::vector<double>{13, 14}));
}

TEST(RoundingBoundTest, TermCountsCountTheProducts) {
  EXPECT_EQ(RunRewritten(Magnitude::kTermCount), (std::vector<double>{3, 3}));
}

TEST(RoundingBoundTest, IntegersAreKept) {
  TensorMap tensors;
  auto index = MakeHostTensor(ElemType::kI32, {1});
  ASSERT_TRUE(index.ok());
  index->Set<int32_t>(0, -3);
  tensors["k"] = *index;
  tensors["x"] = Vector(ElemType::kF64, {-0.5});
  MapInputsForMagnitude(tensors, Magnitude::kAbsoluteSum);
  EXPECT_EQ(tensors["k"].Get<int32_t>(0), -3);
  EXPECT_EQ(tensors["x"].Get<double>(0), 0.5);
  MapInputsForMagnitude(tensors, Magnitude::kTermCount);
  EXPECT_EQ(tensors["k"].Get<int32_t>(0), -3);
  EXPECT_EQ(tensors["x"].Get<double>(0), 1.0);
}

TEST(RoundingBoundTest, HalvesAreMappedInTheirEncoding) {
  auto half = MakeHostTensor(ElemType::kF16, {1});
  ASSERT_TRUE(half.ok());
  half->Set<uint16_t>(0, 0xc200);  // -3.0
  TensorMap tensors = {{"h", *half}};
  MapInputsForMagnitude(tensors, Magnitude::kAbsoluteSum);
  EXPECT_EQ(tensors["h"].GetDouble(0), 3.0);
  MapInputsForMagnitude(tensors, Magnitude::kTermCount);
  EXPECT_EQ(tensors["h"].GetDouble(0), 1.0);
}

TEST(RoundingBoundTest, BoundIsTwiceGammaOfTheTermsTimesTheSum) {
  const double u = std::ldexp(1.0, -24);
  const std::vector<double> bounds =
      RoundingBounds(Vector(ElemType::kF32, {2048, INFINITY, 1, 1}),
                     Vector(ElemType::kF32, {4, 1, std::ldexp(1.0, 24), NAN}));
  ASSERT_EQ(bounds.size(), 4u);
  EXPECT_DOUBLE_EQ(bounds[0], 2 * 4 * u / (1 - 4 * u) * 2048);
  // No bound: an infinite sum, more roundings than the precision has
  // bits for, no count.
  EXPECT_TRUE(std::isnan(bounds[1]));
  EXPECT_TRUE(std::isnan(bounds[2]));
  EXPECT_TRUE(std::isnan(bounds[3]));
}

}  // namespace
}  // namespace tessel::runsim
