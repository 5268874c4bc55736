// Named library calls run as their definitions (docs/run-sim.md, "Named
// library calls"), on inputs small enough to work out by hand.
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/interp/interpreter.h"
#include "libs/verify/read.h"

namespace tessel {
namespace {

HostTensor F32(std::vector<int64_t> shape, const std::vector<float>& values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

std::vector<double> Values(const HostTensor& tensor) {
  std::vector<double> values;
  for (int64_t i = 0; i < tensor.num_elements(); ++i) {
    values.push_back(tensor.GetDouble(i));
  }
  return values;
}

// Compiles the only func of `text`; the module is dropped at once, as the
// program owns the copy it runs.
absl::StatusOr<Program> Compile(const std::string& text) {
  auto module = ir::ReadModule(MakeSource("m.tir", text));
  if (!module.ok()) return module.status();
  auto entry = ir::FindEntry(*module, "");
  if (!entry.ok()) return entry.status();
  return Program::Compile(*module, **entry);
}

TEST(LibCallRunTest, GemmComputesAlphaABTransposedPlusBetaC) {
  auto module = ir::ReadModule(MakeSource(
      "m.tir",
      "(func @f ((A (f32 2 2)) (B (f32 2 2)) (C (f32 2 2))) ((D (f32 2 2)))\n"
      "  (blas.gemm N T 2.0 A B 0.5 C))"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto entry = ir::FindEntry(*module, "");
  ASSERT_TRUE(entry.ok());
  auto program = Program::Compile(*module, **entry);
  ASSERT_TRUE(program.ok()) << program.status();
  auto outputs = program->Run({}, {{"A", F32({2, 2}, {1, 2, 3, 4})},
                                   {"B", F32({2, 2}, {5, 6, 7, 8})},
                                   {"C", F32({2, 2}, {10, 20, 30, 40})}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  // A B^T = ((17 23) (39 53)).
  EXPECT_EQ(Values(outputs->at("D")), (std::vector<double>{39, 56, 93, 126}));
}

TEST(LibCallRunTest, ProgramsOwnTheExpandedFunction) {
  auto program = Compile(
      "(func @f ((x (f32 3))) ((y (f32 2 3)))\n"
      "  (torch.add (torch.full (shape 2 3) 0.5) (torch.mul 2 (blas.memset 2 "
      "3 1.0))))");
  ASSERT_TRUE(program.ok()) << program.status();
  ASSERT_EQ(program->inputs().size(), 1u);
  EXPECT_EQ(program->inputs()[0].name, "x");
  auto outputs = program->Run({}, {{"x", F32({3}, {0, 0, 0})}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(Values(outputs->at("y")),
            (std::vector<double>{2.5, 2.5, 2.5, 2.5, 2.5, 2.5}));
}

TEST(LibCallRunTest, SystolicArrayMultipliesRowsByColumns) {
  auto program = Compile(
      "(func @f ((X (f32 2 2)) (W (f32 2 3))) ((Y (f32 2 3)))\n"
      "  (gemmini.systolicArray 2 3 (access X 1) (access W 0)))");
  ASSERT_TRUE(program.ok()) << program.status();
  auto outputs = program->Run({}, {{"X", F32({2, 2}, {1, 2, 3, 4})},
                                   {"W", F32({2, 3}, {1, 0, 2, 0, 1, 3})}});
  ASSERT_TRUE(outputs.ok()) << outputs.status();
  EXPECT_EQ(Values(outputs->at("Y")), (std::vector<double>{1, 2, 8, 3, 4, 18}));
}

}  // namespace
}  // namespace tessel
