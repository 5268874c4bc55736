#include "libs/runsim/bind_inputs.h"

#include <cstdlib>
#include <filesystem>
#include <memory>

#include "gtest/gtest.h"
#include "libs/verify/read.h"
#include "libs/npy/npy.h"

namespace tessel::runsim {
namespace {

std::string TempDir(const std::string& name) {
  return std::string(getenv("TEST_TMPDIR")) + "/" + name;
}

HostTensor F32(std::vector<int64_t> shape, std::vector<float> values) {
  HostTensor tensor = *MakeHostTensor(ElemType::kF32, std::move(shape));
  for (size_t i = 0; i < values.size(); ++i) tensor.Set<float>(i, values[i]);
  return tensor;
}

constexpr char kScale[] =
    "(proc @scale ((size n) (size k) (in A (f32 n k)) (in s f32)\n"
    "              (out B (f32 n k)))\n"
    "  (for i 0 n (for j 0 k (assign (B i j) (* s (A i j))))))\n";

class BindInputsTest : public testing::Test {
 protected:
  void SetUp() override {
    auto module = ir::ReadModule(MakeSource("m.tir", kScale));
    ASSERT_TRUE(module.ok()) << module.status();
    module_ = std::make_unique<ir::Module>(*std::move(module));
    auto entry = ir::FindEntry(*module_, "");
    ASSERT_TRUE(entry.ok()) << entry.status();
    auto program = Program::Compile(*module_, **entry);
    ASSERT_TRUE(program.ok()) << program.status();
    program_ = std::make_unique<Program>(*std::move(program));
  }

  std::unique_ptr<ir::Module> module_;
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

// A generated input beyond the limit on tensors is an error at its
// parameter (found by scripts/fuzz-inputs.sh: it had no location).
TEST_F(BindInputsTest, GeneratedInputTooLargeIsAnErrorAtItsParameter) {
  InputSource source = InputSource::FromSeed(3);
  auto bound = BindInputs(*program_, source, {{"n", 1 << 20}, {"k", 1 << 20}});
  ASSERT_FALSE(bound.ok());
  const std::string expected =
      "m.tir:1:33: error: input 'A': a float32 tensor of shape "
      "(1048576, 1048576) exceeds the limit";
  EXPECT_EQ(std::string(bound.status().message()).substr(0, expected.size()),
            expected);
}

}  // namespace
}  // namespace tessel::runsim
