#include "libs/primitives/unroll_buffer.h"

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

constexpr char kText[] = R"((proc @p ((in x (f32 2 4)) (out y (f32 4)))
  (alloc t (f32 2 4))
  (for j 0 4 (assign (t 0 j) (x 0 j)) (assign (t 1 j) (x 1 j)))
  (for j 0 4 (assign (y j) (+ (t 0 j) (t 1 j)))))
)";

TEST(UnrollBufferTest, OneAllocPerIndex) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(UnrollBuffer(module, DeclNamed(module, p, "t"), 0).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 2 4)) (out y (f32 4)))
  (alloc t_0 (f32 4))
  (alloc t_1 (f32 4))
  (for j 0 4 (assign (t_0 j) (x 0 j)) (assign (t_1 j) (x 1 j)))
  (for j 0 4 (assign (y j) (+ (t_0 j) (t_1 j)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(UnrollBufferTest, RejectsAnIndexThatIsNoLiteral) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status = UnrollBuffer(module, DeclNamed(module, p, "t"), 1);
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot unroll 't': '(t 0 j)' does not select dimension 1 by a "
            "literal in [0, 4)");
  EXPECT_EQ(Print(module), before);
}

}  // namespace
}  // namespace tessel::primitives
