#include "libs/primitives/divide_dim.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using testing::DeclNamed;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;

constexpr char kText[] = R"((proc @p ((in x (f32 12)) (out y (f32 12)))
  (alloc t (f32 12))
  (for i 0 12 (assign (t i) (x i)))
  (for i 0 12 (assign (y i) (t (- 11 i)))))
)";

TEST(DivideDimTest, SplitsADimension) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(DivideDim(module, DeclNamed(module, p, "t"), 0, 4).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 12)) (out y (f32 12)))
  (alloc t (f32 3 4))
  (for i 0 12 (assign (t (/ i 4) (% i 4)) (x i)))
  (for i 0 12 (assign (y i) (t (/ (- 11 i) 4) (% (- 11 i) 4)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(DivideDimTest, RejectsAQuotientThatDoesNotDivide) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = DivideDim(module, DeclNamed(module, p, "t"), 0, 5);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "dimension 0 of 't' (12) is not a multiple of 5");
  status = DivideDim(module, DeclNamed(module, p, "t"), 1, 4);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::primitives
