#include "libs/primitives/call_eqv.h"

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
    R"((instr @a ((size n) (in src (window f32 n)) (out dst (window f32 n)))
  (c "a();")
  (for i 0 n (assign (dst i) (src i))))

(instr @b ((size m) (in s (window f32 m)) (out d (window f32 m)))
  (c "b();")
  (for k 0 m (assign (d k) (s k))))

(instr @c ((size m) (in s (window f32 m)) (out d (window f32 m)))
  (c "c();")
  (for k 0 m (assign (d k) (* 2.0 (s k)))))

(instr @par ((size m) (in s (window f32 m)) (out d (window f32 m)))
  (c "par();")
  (for-par k 0 m (assign (d k) (s k))))

(proc @p ((in x (f32 8)) (out y (f32 8)))
  (call @a 8 (window x (: 0 8)) (window y (: 0 8))))
)";

TEST(CallEqvTest, CallsAnAlphaEquivalentProc) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(
      CallEqv(module, testing::StmtAt(module, p, {0}), ProcNamed(module, "@b"))
          .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc @p")),
            R"((proc @p ((in x (f32 8)) (out y (f32 8)))
  (call @b 8 (window x (: 0 8)) (window y (: 0 8))))
)");
  absl::Status same = SameValues(kText, module);
  EXPECT_TRUE(same.ok()) << same;
}

TEST(CallEqvTest, RejectsAProcNotKnownEquivalent) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status =
      CallEqv(module, testing::StmtAt(module, p, {0}), ProcNamed(module, "@c"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "@c is not known to be equivalent to @a: call_eqv proves "
            "equivalence as alpha-equivalence of the parameters, assertions "
            "and bodies");
  EXPECT_EQ(Print(module), before);
  // The same body but for a parallel loop.
  status = CallEqv(module, testing::StmtAt(module, p, {0}),
                   ProcNamed(module, "@par"));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(Print(module), before);
}

}  // namespace
}  // namespace tessel::primitives
