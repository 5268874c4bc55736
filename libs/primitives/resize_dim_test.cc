#include "libs/primitives/resize_dim.h"

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

constexpr char kText[] = R"((proc @p ((in x (f32 16)) (out y (f32 8)))
  (alloc t (f32 16))
  (for i 0 8 (assign (t (+ i 4)) (x (+ i 4))))
  (for i 0 8 (assign (y i) (t (+ i 4)))))
)";

TEST(ResizeDimTest, ShrinksToTheUsedPart) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(ResizeDim(module, DeclNamed(module, p, "t"), 0,
                        *Build::Int(module, 8), *Build::Int(module, 4))
                  .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 16)) (out y (f32 8)))
  (alloc t (f32 8))
  (for i 0 8 (assign (t (- (+ i 4) 4)) (x (+ i 4))))
  (for i 0 8 (assign (y i) (t (- (+ i 4) 4)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(ResizeDimTest, RejectsAnAccessOutside) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status =
      ResizeDim(module, DeclNamed(module, p, "t"), 0, *Build::Int(module, 8),
                *Build::Int(module, 5));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot resize dimension 0 of 't' to 8 from 5: error: index 0 of "
            "'t' can be -1, below 0 (at i = 0)");
  EXPECT_EQ(Print(module), before);
  status = ResizeDim(module, DeclNamed(module, p, "t"), 0,
                     *Build::Int(module, 8), *Build::Int(module, 4), true);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::primitives
