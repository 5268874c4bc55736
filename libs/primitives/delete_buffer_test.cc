#include "libs/primitives/delete_buffer.h"

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

constexpr char kText[] = R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc unused (f32 4))
  (alloc t (f32 8))
  (for i 0 8 (assign (t i) (x i)))
  (for i 0 8 (assign (y i) (t i))))
)";

TEST(DeleteBufferTest, DeletesAnUnusedAlloc) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(DeleteBuffer(module, DeclNamed(module, p, "unused")).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc t (f32 8))
  (for i 0 8 (assign (t i) (x i)))
  (for i 0 8 (assign (y i) (t i))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(DeleteBufferTest, RejectsAUsedAlloc) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = DeleteBuffer(module, DeclNamed(module, p, "t"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "cannot delete 't': it is used in '(t i)'");
  status = DeleteBuffer(module, DeclNamed(module, p, "i"));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::primitives
