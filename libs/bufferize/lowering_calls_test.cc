#include "gtest/gtest.h"
#include "libs/bufferize/bufferize.h"
#include "libs/ir/syntax.h"
#include "libs/support/source.h"
#include "libs/verify/read.h"

namespace tessel::bufferize {
namespace {

// A library call's scalar operand that is the literal inf or nan is
// computed into a scalar: it is no name (found by scripts/fuzz-inputs.sh).
TEST(LoweringCallsTest, InfAndNanOperandsAreLiterals) {
  for (const std::string literal : {"inf", "nan", "-inf"}) {
    auto module = ir::ReadModule(MakeSource(
        "test.tir", "(func @f ((A (f32 3 2)) (x (f32 2))) ((y (f32 3))) "
                    "(blas.gemv N " + literal +
                        " A x 0.0 (blas.memset 3 0.0)))"));
    ASSERT_TRUE(module.ok()) << module.status();
    auto bufferized = Bufferize(*module);
    ASSERT_TRUE(bufferized.ok()) << literal << ": " << bufferized.status();
    EXPECT_NE(ir::PrintModule(bufferized->module)
                  .find("(assign s0 " + literal + ")"),
              std::string::npos)
        << ir::PrintModule(bufferized->module);
  }
}

}  // namespace
}  // namespace tessel::bufferize
