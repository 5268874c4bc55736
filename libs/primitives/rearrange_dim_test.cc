#include "libs/primitives/rearrange_dim.h"

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

constexpr char kText[] = R"((proc @p ((in x (f32 4 8)) (out y (f32 8 4)))
  (alloc t (f32 4 8))
  (for i 0 4 (for j 0 8 (assign (t i j) (x i j))))
  (for j 0 8 (for i 0 4 (assign (y j i) (t i j)))))
)";

TEST(RearrangeDimTest, PermutesDimensionsAndIndices) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(RearrangeDim(module, DeclNamed(module, p, "t"), {1, 0}).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_EQ(Print(module), R"((proc @p ((in x (f32 4 8)) (out y (f32 8 4)))
  (alloc t (f32 8 4))
  (for i 0 4 (for j 0 8 (assign (t j i) (x i j))))
  (for j 0 8 (for i 0 4 (assign (y j i) (t j i)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(RearrangeDimTest, RejectsWhatIsNoPermutation) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = RearrangeDim(module, DeclNamed(module, p, "t"), {0, 0});
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(status.message(),
            "[0, 0] is not a permutation of the 2 dimensions of 't'");
}

TEST(RearrangeDimTest, RejectsTransposingAWindow) {
  std::string text =
      R"((proc @copy ((in src (window f32 2 2)) (out dst (window f32 2 2)))
  (for i 0 2 (for j 0 2 (assign (dst i j) (src i j)))))

(proc @p ((in x (f32 2 2)) (out y (f32 2 2)))
  (alloc t (f32 2 2))
  (call @copy (window x (: 0 2) (: 0 2)) (window t (: 0 2) (: 0 2)))
  (for i 0 2 (for j 0 2 (assign (y i j) (t i j)))))
)";
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status = RearrangeDim(module, DeclNamed(module, p, "t"), {1, 0});
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "rearranging 't' would transpose '(window t (: 0 2) (: 0 2))'");
  EXPECT_EQ(Print(module), before);
}

}  // namespace
}  // namespace tessel::primitives
