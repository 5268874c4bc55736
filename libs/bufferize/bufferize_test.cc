#include "libs/bufferize/bufferize.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/support/source.h"
#include "libs/verify/read.h"

namespace tessel::bufferize {
namespace {

constexpr char kSum[] =
    "(func @sum ((A (f32 8)) (B (f32 8))) ((r f32)) "
    "(app (lam (index %0 3)) (build 8 (lam (+ (index A %0) (index B %0))))))";

// The proc's parameter list, where the writes show as `inout`.
std::string ParamsAfter(const std::vector<std::string>& writable_args) {
  auto module = ir::ReadModule(MakeSource("test.tir", kSum));
  EXPECT_TRUE(module.ok()) << module.status();
  Options options;
  options.writable_args = writable_args;
  auto bufferized = Bufferize(*module, options);
  EXPECT_TRUE(bufferized.ok()) << bufferized.status();
  EXPECT_EQ(bufferized->reports.front().stats.allocations, 0);
  std::string text = ir::PrintModule(bufferized->module);
  return text.substr(0, text.find("(out r"));
}

// A build that could write into either writable argument takes the first
// listed; `all` adds the ones not named before it, in the func's order.
TEST(BufferizeTest, WritableArgsAreTakenInTheOrderListed) {
  EXPECT_EQ(ParamsAfter({"A", "B"}),
            "(proc @sum ((inout A (f32 8)) (in B (f32 8)) ");
  EXPECT_EQ(ParamsAfter({"B", "A"}),
            "(proc @sum ((in A (f32 8)) (inout B (f32 8)) ");
  EXPECT_EQ(ParamsAfter({"B", "all"}),
            "(proc @sum ((in A (f32 8)) (inout B (f32 8)) ");
  EXPECT_EQ(ParamsAfter({"all"}),
            "(proc @sum ((inout A (f32 8)) (in B (f32 8)) ");
}

// A library call's scalar operand that is the literal inf or nan is
// computed into a scalar: it is no name (found by scripts/fuzz-inputs.sh).
TEST(BufferizeTest, InfAndNanCallOperandsAreLiterals) {
  for (const std::string literal : {"inf", "nan", "-inf"}) {
    auto module = ir::ReadModule(
        MakeSource("test.tir",
                   "(func @f ((A (f32 3 2)) (x (f32 2))) ((y (f32 3))) "
                   "(blas.gemv N " +
                       literal + " A x 0.0 (blas.memset 3 0.0)))"));
    ASSERT_TRUE(module.ok()) << module.status();
    auto bufferized = Bufferize(*module);
    ASSERT_TRUE(bufferized.ok()) << literal << ": " << bufferized.status();
    EXPECT_NE(
        ir::PrintModule(bufferized->module).find("(assign s0 " + literal + ")"),
        std::string::npos)
        << ir::PrintModule(bufferized->module);
  }
}

}  // namespace
}  // namespace tessel::bufferize
