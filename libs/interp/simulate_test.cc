#include "libs/interp/simulate.h"

#include <cmath>
#include <filesystem>
#include <sstream>

#include "gtest/gtest.h"
#include "libs/cli/command_line.h"
#include "libs/interp/seeded_inputs.h"
#include "libs/npy/npy.h"

namespace tessel {
namespace {

std::string TempDir(const std::string& name) {
  return std::string(getenv("TEST_TMPDIR")) + "/" + name;
}

HostTensor F32(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

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

constexpr char kScale[] =
    "(proc @scale ((size n) (size k) (in A (f32 n k)) (in s f32)\n"
    "              (out B (f32 n k)))\n"
    "  (for i 0 n (for j 0 k (assign (B i j) (* s (A i j))))))\n";

class BindInputsTest : public testing::Test {
 protected:
  void SetUp() override {
    auto module = ReadModule(MakeSource("m.tir", kScale));
    ASSERT_TRUE(module.ok()) << module.status();
    module_ = std::make_unique<Module>(*std::move(module));
    auto program = Program::Compile(*module_, *FindEntry(*module_, ""));
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = std::make_unique<Program>(*std::move(program));
  }

  std::unique_ptr<Module> module_;
  std::unique_ptr<Program> program_;
};

TEST_F(BindInputsTest, InfersSizesFromFiles) {
  const std::string dir = TempDir("infer");
  std::filesystem::create_directories(dir);
  ASSERT_TRUE(WriteNpy(dir + "/A.npy", F32({2, 3}, {})).ok());
  ASSERT_TRUE(WriteNpy(dir + "/s.npy", F32({}, {2})).ok());
  InputSource source = InputSource::FromDirectory(dir);
  auto bound = BindInputs(*program_, source, {});
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(bound->controls.at("n"), 2);
  EXPECT_EQ(bound->controls.at("k"), 3);

  auto conflicting = BindInputs(*program_, source, {{"k", 4}});
  ASSERT_FALSE(conflicting.ok());
  EXPECT_NE(conflicting.status().message().find(
                "A.npy: error: shape (2, 3) does not match parameter A "
                "(f32 2 4) (n = 2 from "),
            std::string::npos)
      << conflicting.status();
}

TEST_F(BindInputsTest, GeneratesFromASeed) {
  InputSource source = InputSource::FromSeed(3);
  auto unbound = BindInputs(*program_, source, {{"n", 2}});
  ASSERT_FALSE(unbound.ok());
  EXPECT_NE(unbound.status().message().find(
                "size 'k' of @scale has no value: pass -D k=VALUE"),
            std::string::npos)
      << unbound.status();
  auto bound = BindInputs(*program_, source, {{"n", 2}, {"k", 5}});
  ASSERT_TRUE(bound.ok()) << bound.status();
  EXPECT_EQ(bound->tensors.at("A").shape, (std::vector<int64_t>{2, 5}));
  EXPECT_TRUE(bound->tensors.at("s").shape.empty());
  EXPECT_FALSE(BindInputs(*program_, source, {{"n", -1}, {"k", 5}}).ok());
}

TEST(SimulateTest, ReportsAndWritesOutputs) {
  const std::string dir = TempDir("simulate");
  std::filesystem::create_directories(dir);
  const std::string file = dir + "/scale.tir";
  ASSERT_TRUE(WriteOutput(file, kScale).ok());
  SimulateOptions options;
  options.file = file;
  options.seed = 1;
  options.defines = {{"n", 2}, {"k", 2}};
  options.outputs_dir = dir + "/out";
  std::ostringstream out;
  ASSERT_TRUE(Simulate(options, out).ok());
  EXPECT_EQ(out.str().rfind("B: f32 2x2, sum ", 0), 0u) << out.str();
  for (const char* name : {"A", "s", "B"}) {
    EXPECT_TRUE(ReadNpy(options.outputs_dir + "/" + name + ".npy").ok());
  }

  SimulateOptions expect = options;
  expect.seed.reset();
  expect.defines.clear();
  expect.inputs_dir = options.outputs_dir;
  expect.outputs_dir.clear();
  expect.expect_dir = options.outputs_dir;
  std::ostringstream report;
  ASSERT_TRUE(Simulate(expect, report).ok());
  EXPECT_EQ(report.str(), "B: max abs diff 0, max rel diff 0 (2x2, f32): ok\n");

  expect.inputs_dir.clear();
  EXPECT_FALSE(Simulate(expect, report).ok());  // neither --inputs nor --seed
}

}  // namespace
}  // namespace tessel
