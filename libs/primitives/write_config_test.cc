#include "libs/primitives/write_config.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/verify/verifier.h"
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

(proc @p ((in x (f32 4)) (out y (f32 4)))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (x i))))
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (y i)))))
)";

TEST(WriteConfigTest, InsertsAWriteOfTheValueTheFieldHolds) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(WriteConfig(module, testing::StmtAt(module, p, {1}).after(),
                          *module.Find("@Cfg"), "scale",
                          *Build::Float(module, 2.0))
                  .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (x i))))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (y i)))))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(WriteConfigTest, RejectsAWriteThatChangesAValueRead) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status =
      WriteConfig(module, testing::StmtAt(module, p, {1}).after(),
                  *module.Find("@Cfg"), "scale", *Build::Float(module, 3.0));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot insert '(write-config @Cfg scale 3.0)': '(for i 0 4 "
            "(assign (y i) (* (read-config @Cfg scale) (y i))))' reads "
            "@Cfg.scale after '(write-config @Cfg scale 3.0)'");
  EXPECT_EQ(Print(module), before);
  status =
      WriteConfig(module, testing::StmtAt(module, p, {1}).after(),
                  *module.Find("@Cfg"), "nope", *Build::Float(module, 3.0));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
}

}  // namespace
}  // namespace tessel::primitives
