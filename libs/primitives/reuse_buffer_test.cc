#include "libs/primitives/reuse_buffer.h"

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

constexpr char kText[] =
    R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (alloc a (f32 8))
  (for i 0 8 (assign (a i) (x i)))
  (for i 0 8 (assign (y i) (a i)))
  (alloc b (f32 8))
  (for i 0 8 (assign (b i) (* 2.0 (x i))))
  (for i 0 8 (assign (z i) (b i))))
)";

TEST(ReuseBufferTest, ReusesADeadBuffer) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(
      ReuseBuffer(module, DeclNamed(module, p, "a"), DeclNamed(module, p, "b"))
          .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module),
            R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (alloc a (f32 8))
  (for i 0 8 (assign (a i) (x i)))
  (for i 0 8 (assign (y i) (a i)))
  (for i 0 8 (assign (a i) (* 2.0 (x i))))
  (for i 0 8 (assign (z i) (a i))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(ReuseBufferTest, RejectsABufferStillLive) {
  std::string text =
      R"((proc @p ((in x (f32 8)) (out y (f32 8)) (out z (f32 8)))
  (alloc a (f32 8))
  (for i 0 8 (assign (a i) (x i)))
  (alloc b (f32 8))
  (for i 0 8 (assign (b i) (* 2.0 (x i))))
  (for i 0 8 (assign (y i) (a i)))
  (for i 0 8 (assign (z i) (b i))))
)";
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status =
      ReuseBuffer(module, DeclNamed(module, p, "a"), DeclNamed(module, p, "b"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(), "'a' is not dead at 'b': '(a i)' uses it later");
}

TEST(ReuseBufferTest, RejectsAUseInALoopAroundTheNewAlloc) {
  std::string text = R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (alloc a f32)
  (assign a 0.0)
  (for i 0 8
    (assign (y i) a)
    (alloc b f32)
    (assign b (x i))
    (assign a b)))
)";
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status =
      ReuseBuffer(module, DeclNamed(module, p, "a"), DeclNamed(module, p, "b"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "'a' is not dead at 'b': '(assign (y i) a)' uses it later");
}

}  // namespace
}  // namespace tessel::primitives
