#include "libs/primitives/expand_dim.h"

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

constexpr char kText[] = R"((proc @p ((in x (f32 4 8)) (out y (f32 4 8)))
  (for i 0 4
    (alloc t (f32 8))
    (for j 0 8 (assign (t j) (* 2.0 (x i j))))
    (for j 0 8 (assign (y i j) (t j)))))
)";

TEST(ExpandDimTest, AddsADimensionIndexedByTheLoop) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ir::Cursor t = DeclNamed(module, p, "t");
  ASSERT_TRUE(ExpandDim(module, t, *Build::Int(module, 4),
                        *Build::Ref(module, *DeclNamed(module, p, "i").node()))
                  .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 4 8)) (out y (f32 4 8)))
  (for i 0 4
    (alloc t (f32 4 8))
    (for j 0 8 (assign (t i j) (* 2.0 (x i j))))
    (for j 0 8 (assign (y i j) (t i j)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(ExpandDimTest, RejectsAnIndexOutOfTheNewDimension) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status =
      ExpandDim(module, DeclNamed(module, p, "t"), *Build::Int(module, 3),
                *Build::Ref(module, *DeclNamed(module, p, "i").node()));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot expand 't' by 3 indexed by i: error: index 0 of 't' can "
            "reach 3, outside its extent 3 (at i = 3, j = 0)");
  EXPECT_EQ(Print(module), before);
}

// A scalar's accesses become elements (they were found by its type before
// the new dimension).
TEST(ExpandDimTest, ExpandsAScalar) {
  constexpr char kScalar[] = R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (for i 0 4 (alloc t f32) (assign t (* 2.0 (x i))) (assign (y i) t)))
)";
  ir::Module module = ReadVerified(kScalar);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(ExpandDim(module, DeclNamed(module, p, "t"),
                        *Build::Int(module, 4),
                        *Build::Ref(module, *DeclNamed(module, p, "i").node()))
                  .ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (for i 0 4
    (alloc t (f32 4))
    (assign (t i) (* 2.0 (x i)))
    (assign (y i) (t i))))
)");
  EXPECT_TRUE(SameValues(kScalar, module).ok());
}

}  // namespace
}  // namespace tessel::primitives
