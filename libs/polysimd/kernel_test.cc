// The kernels polysimd reads (ReadKernel).
#include "libs/polysimd/kernel.h"

#include "gtest/gtest.h"
#include "libs/poly/poly.h"
#include "libs/support/source.h"
#include "libs/verify/read.h"

namespace tessel::polysimd {
namespace {

// A statement whose loop runs no iteration is an error at its update, not
// an empty statement that the placement checks cannot place (found by
// scripts/fuzz-inputs.sh: an isl error without a location).
TEST(KernelTest, StatementWithoutInstancesIsAnError) {
  auto module = ir::ReadModule(MakeSource(
      "k.tir",
      "(proc @k ((in x (f32 4)) (out y (f32 4)))\n"
      "  (for i 0 -1 (assign (y i) (x i))))\n"));
  ASSERT_TRUE(module.ok()) << module.status();
  auto entry = ir::FindEntry(*module, "");
  ASSERT_TRUE(entry.ok()) << entry.status();
  poly::Context context;
  isl::ctx ctx(context.get());
  auto kernel = ReadKernel(ctx, **entry);
  ASSERT_FALSE(kernel.ok());
  EXPECT_EQ(kernel.status().message(),
            "k.tir:2:15: error: statement 'y' has no instance: a loop around "
            "it runs no iteration\n"
            "  (for i 0 -1 (assign (y i) (x i))))\n"
            "              ^");
}

}  // namespace
}  // namespace tessel::polysimd
