#include "libs/primitives/inline.h"

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
    R"((instr @scale ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "scale();")
  (assert (<= n 8))
  (for i 0 n (assign (dst i) (* 2.0 (src i)))))

(proc @p ((in x (f32 4 8)) (out y (f32 4 4)))
  (for i 0 4 (call @scale 4 (window x i (: 2 6)) (window y i (: 0 4)))))
)";

TEST(InlineTest, SubstitutesSizesAndWindows) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(Inline(module, testing::StmtAt(module, p, {0, 0})).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc @p")),
            R"((proc @p ((in x (f32 4 8)) (out y (f32 4 4)))
  (for i 0 4 (for i_1 0 4 (assign (y i i_1) (* 2.0 (x i (+ 2 i_1)))))))
)");
  absl::Status same = SameValues(kText, module);
  EXPECT_TRUE(same.ok()) << same;
}

// The copy of the callee's alloc is the one its copied statements use.
TEST(InlineTest, InlinesABodyWithATemporary) {
  constexpr char kTemporary[] =
      "(instr @twice ((in a f32) (out b f32))\n"
      "  (c \"twice();\")\n"
      "  (alloc t f32) (assign t (* 2.0 a)) (assign b t))\n"
      "(proc @p ((in x f32) (out y f32)) (call @twice x y))\n";
  ir::Module module = ReadVerified(kTemporary);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(Inline(module, testing::StmtAt(module, p, {0})).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc @p")),
            "(proc @p ((in x f32) (out y f32))\n"
            "  (alloc t f32)\n"
            "  (assign t (* 2.0 x))\n"
            "  (assign y t))\n");
  absl::Status same = SameValues(kTemporary, module);
  EXPECT_TRUE(same.ok()) << same;
}

TEST(InlineTest, RejectsWhatIsNoCall) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = Inline(module, testing::StmtAt(module, p, {0}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::primitives
