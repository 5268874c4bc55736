#include "libs/primitives/set_precision.h"

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

constexpr char kText[] = R"((proc @p ((in x (i32 8)) (out y (i32 8)))
  (alloc t (f32 8))
  (for i 0 8 (assign (t i) 3))
  (for i 0 8 (assign (y i) (+ (x i) (cast i32 (t i))))))
)";

TEST(SetPrecisionTest, ChangesTheElementType) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(SetPrecision(module, DeclNamed(module, p, "t"), "i32").ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (i32 8)) (out y (i32 8)))
  (alloc t (i32 8))
  (for i 0 8 (assign (t i) 3))
  (for i 0 8 (assign (y i) (+ (x i) (cast i32 (t i))))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(SetPrecisionTest, RejectsWhatTheCodeCannotStore) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status = SetPrecision(module, DeclNamed(module, p, "x"), "f32");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "'x' cannot hold f32: m.tir:4:31: error: expected i32, found "
            "f32\n  (for i 0 8 (assign (y i) (+ (x i) (cast i32 (t i))))))\n"
            "                              ^");
  EXPECT_EQ(Print(module), before);
  status = SetPrecision(module, DeclNamed(module, p, "t"), "q7");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "'q7' is not an element type");
}

}  // namespace
}  // namespace tessel::primitives
