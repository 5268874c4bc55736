#include "libs/bufferize/lib_call.h"

#include "gtest/gtest.h"
#include "libs/ir/op.h"
#include "libs/verify/read.h"
#include "libs/support/source.h"

namespace tessel::bufferize {
namespace {

// The first named call of the only func of `text`.
const ir::Node* FirstCall(const ir::Module& module) {
  const ir::Node* found = nullptr;
  std::vector<const ir::Node*> work = {module.forms().front()};
  while (!work.empty() && found == nullptr) {
    const ir::Node* node = work.back();
    work.pop_back();
    if (node->is(ir::Op::kLibCall)) found = node;
    for (const ir::Node* operand : node->operands()) work.push_back(operand);
  }
  return found;
}

absl::StatusOr<ir::Module> Read(const std::string& text) {
  return ir::ReadModule(MakeSource("test.tir", text));
}

TEST(LibCallTest, GemvTransposedHasItsInstr) {
  auto module = Read(
      "(func @f ((a f32) (A (f32 5 3)) (x (f32 5)) (y (f32 3))) "
      "((r (f32 3))) (blas.gemv T a A x a y))");
  ASSERT_TRUE(module.ok()) << module.status();
  const ir::Node* instr = InstrForCall(*FirstCall(*module));
  ASSERT_NE(instr, nullptr);
  EXPECT_EQ(instr->name(), "@blas.gemv.T");
  EXPECT_FALSE(ReturnsScalar(*instr));
  // (size n) (size m): A is n by m.
  auto sizes = InstrSizes(*instr, {{}, {5, 3}, {5}, {}, {3}});
  ASSERT_TRUE(sizes.ok()) << sizes.status();
  EXPECT_EQ(*sizes, (std::vector<int64_t>{5, 3}));
  EXPECT_FALSE(InstrSizes(*instr, {{}, {5, 3}, {4}, {}, {3}}).ok());
}

TEST(LibCallTest, DotReturnsAScalar) {
  auto module = Read(
      "(func @f ((x (f32 4)) (y (f32 4))) ((r f32)) (blas.dot x y))");
  ASSERT_TRUE(module.ok()) << module.status();
  const ir::Node* instr = InstrForCall(*FirstCall(*module));
  ASSERT_NE(instr, nullptr);
  EXPECT_TRUE(ReturnsScalar(*instr));
}

TEST(LibCallTest, NoInstrForDoublesOrMemset) {
  auto doubles = Read(
      "(func @f ((x (f64 4)) (y (f64 4))) ((r f64)) (blas.dot x y))");
  ASSERT_TRUE(doubles.ok()) << doubles.status();
  EXPECT_EQ(InstrForCall(*FirstCall(*doubles)), nullptr);
  auto memset =
      Read("(func @f () ((r (f32 4))) (blas.memset 4 0.0))");
  ASSERT_TRUE(memset.ok()) << memset.status();
  EXPECT_EQ(InstrForCall(*FirstCall(*memset)), nullptr);
}

}  // namespace
}  // namespace tessel::bufferize
