// The values of access patterns (docs/run-sim.md, "Access patterns"), on
// inputs small enough to work out by hand.
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/verify/read.h"

namespace tessel {
namespace {

HostTensor Tensor(ElemType elem, std::vector<int64_t> shape,
                  const std::vector<double>& values) {
  HostTensor tensor = *MakeHostTensor(elem, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) {
    switch (elem) {
      case ElemType::kF32:
        tensor.Set<float>(i, static_cast<float>(values[i]));
        break;
      case ElemType::kI8:
        tensor.Set<int8_t>(i, static_cast<int8_t>(values[i]));
        break;
      default:
        ADD_FAILURE() << "unsupported element type";
    }
  }
  return tensor;
}

HostTensor F32(std::vector<int64_t> shape, const std::vector<double>& values) {
  return Tensor(ElemType::kF32, std::move(shape), values);
}

std::vector<double> Values(const HostTensor& tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    values.push_back(tensor.GetDouble(i));
  }
  return values;
}

// Runs the only func of `text` and returns its output `name`.
absl::StatusOr<HostTensor> RunFunc(const std::string& text,
                                   const TensorMap& inputs,
                                   const std::string& name = "y") {
  auto module = ir::ReadModule(MakeSource("m.tir", text));
  if (!module.ok()) return module.status();
  auto entry = ir::FindEntry(*module, "");
  if (!entry.ok()) return entry.status();
  auto program = Program::Compile(*module, **entry);
  if (!program.ok()) return program.status();
  auto outputs = program->Run({}, inputs);
  if (!outputs.ok()) return outputs.status();
  return outputs->at(name);
}

// x = [[0 1 2] [3 4 5]].
const HostTensor kX23 = F32({2, 3}, {0, 1, 2, 3, 4, 5});

TEST(AccessPatternTest, TransposesEveryDimension) {
  auto y = RunFunc(
      "(func @f ((x (f32 2 3))) ((y (f32 3 2)))"
      " (transpose (access x 1) (list 1 0)))",
      {{"x", kX23}});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values(*y), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(AccessPatternTest, MultipliesMatrices) {
  auto y = RunFunc(
      "(func @f ((a (f32 2 2)) (b (f32 2 2))) ((y (f32 2 2)))\n"
      "  (compute dotProd (cartProd (access a 1)\n"
      "                             (transpose (access b 1) (list 1 0)))))",
      {{"a", F32({2, 2}, {1, 2, 3, 4})}, {"b", F32({2, 2}, {5, 6, 7, 8})}});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values(*y), (std::vector<double>{19, 22, 43, 50}));
}

TEST(AccessPatternTest, FormsWindowsWithStrides) {
  auto y = RunFunc(
      "(func @f ((x (f32 5))) ((y (f32 2 3)))"
      " (windows (access x 0) (shape 3) (shape 2)))",
      {{"x", F32({5}, {0, 1, 2, 3, 4})}});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values(*y), (std::vector<double>{0, 1, 2, 2, 3, 4}));
}

TEST(AccessPatternTest, SlicesAndConcatenates) {
  auto sliced = RunFunc(
      "(func @f ((x (f32 2 3))) ((y (f32 2 2))) (slice (access x 1) 1 1 3))",
      {{"x", kX23}});
  ASSERT_TRUE(sliced.ok()) << sliced.status();
  EXPECT_EQ(Values(*sliced), (std::vector<double>{1, 2, 4, 5}));

  auto joined = RunFunc(
      "(func @f ((x (f32 2 3)) (z (f32 2 1))) ((y (f32 2 4)))"
      " (concat (access x 1) (access z 1) 1))",
      {{"x", kX23}, {"z", F32({2, 1}, {6, 7})}});
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_EQ(Values(*joined), (std::vector<double>{0, 1, 2, 6, 3, 4, 5, 7}));
}

TEST(AccessPatternTest, ReshapingKeepsTheRowMajorElements) {
  for (auto [term, type] :
       {std::pair{"(flatten (access x 2))", "(f32 6 1)"},
        std::pair{"(reshape (access x 1) (shape 2) (shape 3))", "(f32 2 3)"},
        std::pair{"(squeeze (access x 3) 2)", "(f32 2 3)"}}) {
    const std::string text =
        absl::StrCat("(func @f ((x (f32 2 3 1))) ((y ", type, ")) ", term, ")");
    auto y = RunFunc(text, {{"x", F32({2, 3, 1}, {0, 1, 2, 3, 4, 5})}});
    ASSERT_TRUE(y.ok()) << text << ": " << y.status();
    EXPECT_EQ(Values(*y), (std::vector<double>{0, 1, 2, 3, 4, 5})) << text;
  }
}

TEST(AccessPatternTest, PairsAndCombinesElementwise) {
  const TensorMap inputs = {{"x", F32({2}, {1, 2})}, {"z", F32({2}, {3, 4})}};
  auto paired = RunFunc(
      "(func @f ((x (f32 2)) (z (f32 2))) ((y (f32 2 2)))"
      " (pair (access x 1) (access z 1)))",
      inputs);
  ASSERT_TRUE(paired.ok()) << paired.status();
  EXPECT_EQ(Values(*paired), (std::vector<double>{1, 3, 2, 4}));
  for (auto [op, expected] :
       {std::pair{"elementwiseAdd", std::vector<double>{4, 6}},
        std::pair{"elementwiseMul", std::vector<double>{3, 8}}}) {
    auto y =
        RunFunc(absl::StrCat("(func @f ((x (f32 2)) (z (f32 2))) ((y (f32 2)))"
                             " (compute ",
                             op, " (pair (access x 1) (access z 1))))"),
                inputs);
    ASSERT_TRUE(y.ok()) << y.status();
    EXPECT_EQ(Values(*y), expected) << op;
  }
}

TEST(AccessPatternTest, ReducesOverTheComputeDimensions) {
  auto rows = RunFunc(
      "(func @f ((x (f32 2 3))) ((y (f32 2)))"
      " (compute reduceSum (access x 1)))",
      {{"x", kX23}});
  ASSERT_TRUE(rows.ok()) << rows.status();
  EXPECT_EQ(Values(*rows), (std::vector<double>{3, 12}));

  // (access x 0) has no access dimensions: the result is a scalar.
  auto max = RunFunc(
      "(func @f ((x (f32 2 3))) ((y f32)) (compute reduceMax (access x 0)))",
      {{"x", F32({2, 3}, {-4, 7, -1, 2, 6, -9})}});
  ASSERT_TRUE(max.ok()) << max.status();
  EXPECT_EQ(Values(*max), (std::vector<double>{7}));
}

TEST(AccessPatternTest, ReluIsMaxWithZero) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto y = RunFunc(
      "(func @f ((x (f32 4))) ((y (f32 4))) (compute relu (access x 1)))",
      {{"x", F32({4}, {-1.5, 2.5, 0, nan})}});
  ASSERT_TRUE(y.ok()) << y.status();
  std::vector<double> values = Values(*y);
  EXPECT_EQ(values[0], 0);
  EXPECT_EQ(values[1], 2.5);
  EXPECT_EQ(values[2], 0);
  EXPECT_TRUE(std::isnan(values[3]));  // (nan < 0) ? 0 : nan
}

TEST(AccessPatternTest, WrapsI8ArithmeticAfterEveryOperation) {
  // 100 * 1 + 100 * 1 = 200, which is -56 in i8.
  auto y = RunFunc(
      "(func @f ((a (i8 1 2)) (b (i8 2 1))) ((y (i8 1 1)))\n"
      "  (compute dotProd (cartProd (access a 1)\n"
      "                             (transpose (access b 1) (list 1 0)))))",
      {{"a", Tensor(ElemType::kI8, {1, 2}, {100, 100})},
       {"b", Tensor(ElemType::kI8, {2, 1}, {1, 1})}});
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(Values(*y), (std::vector<double>{-56}));
}

TEST(AccessPatternTest, AppliesToBuiltArraysAndVariables) {
  // An access pattern of a build, bound by app, indexed afterwards.
  auto y = RunFunc(
      "(func @f ((x (f32 2 3))) ((y (f32 3)))\n"
      "  (app (lam (index (transpose (access %0 1) (list 1 0)) 1))\n"
      "       (build 3 (lam (build 2 (lam (index (index x %0) %1)))))))",
      {{"x", kX23}});
  ASSERT_TRUE(y.ok()) << y.status();
  // The build is x transposed; transposing it back and taking row 1.
  EXPECT_EQ(Values(*y), (std::vector<double>{3, 4, 5}));
}

}  // namespace
}  // namespace tessel
