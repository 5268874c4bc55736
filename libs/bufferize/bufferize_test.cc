#include "libs/bufferize/bufferize.h"

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

}  // namespace
}  // namespace tessel::bufferize
