#include "libs/primitives/bind_config.h"

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

constexpr char kText[] = R"((config @Cfg (scale f32))

(proc @p ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (for i 0 4 (assign (y i) (* a (x i))))
  (write-config @Cfg scale 1.0))
)";

TEST(BindConfigTest, WritesTheValueAndReadsIt) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ir::Cursor assign = testing::StmtAt(module, p, {0, 0});
  ir::Cursor a = assign.operand(1).operand(0);
  ASSERT_TRUE(BindConfig(module, a, *module.Find("@Cfg"), "scale").ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (for i 0 4
    (write-config @Cfg scale a)
    (assign (y i) (* (read-config @Cfg scale) (x i))))
  (write-config @Cfg scale 1.0))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(BindConfigTest, AValueLiveAtTheEndMakesTheProcClobberTheField) {
  std::string text = R"((config @Cfg (scale f32))

(proc @p ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (for i 0 4 (assign (y i) (* a (x i)))))
)";
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  ir::Cursor a = testing::StmtAt(module, p, {0, 0}).operand(1).operand(0);
  ASSERT_TRUE(BindConfig(module, a, *module.Find("@Cfg"), "scale").ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string printed = Print(module);
  EXPECT_EQ(printed.substr(printed.find("(proc")),
            R"((proc @p ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (clobbers @Cfg scale)
  (for i 0 4
    (write-config @Cfg scale a)
    (assign (y i) (* (read-config @Cfg scale) (x i)))))
)");
  EXPECT_TRUE(SameValues(text, module).ok());
}

TEST(BindConfigTest, RejectsAValueACallerReads) {
  std::string text = R"((config @Cfg (scale f32))

(proc @p ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (for i 0 4 (assign (y i) (* a (x i)))))

(proc @caller ((in x (f32 4)) (in a f32) (out y (f32 4)))
  (call @p x a y)
  (assign (y 0) (read-config @Cfg scale)))
)";
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  ir::Cursor a = testing::StmtAt(module, p, {0, 0}).operand(1).operand(0);
  absl::Status status = BindConfig(module, a, *module.Find("@Cfg"), "scale");
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find(
                "'(read-config @Cfg scale)' reads @Cfg.scale, which the call "
                "to '@p' before it clobbers: write it first"),
            std::string::npos)
      << status;
  EXPECT_EQ(Print(module), before);
}

}  // namespace
}  // namespace tessel::primitives
