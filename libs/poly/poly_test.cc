#include "libs/poly/poly.h"

#include <isl/ctx.h>
#include <isl/options.h>

#include "gtest/gtest.h"

namespace tessel::poly {
namespace {

TEST(ContextTest, ReportsErrorsAndBoundsEveryQuestion) {
  Context ctx;
  EXPECT_EQ(isl_options_get_on_error(ctx.get()), ISL_ON_ERROR_CONTINUE);
  EXPECT_EQ(isl_ctx_get_max_operations(ctx.get()), Context::kMaxOperations);
}

}  // namespace
}  // namespace tessel::poly
