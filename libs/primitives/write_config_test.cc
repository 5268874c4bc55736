#include "libs/primitives/write_config.h"

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/forms.h"
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

// Exo's section 2.4: a load asserts the stride configured; the write
// inside the loop is where the schedule put it first.
constexpr char kLoads[] = R"((config @Load (stride stride))

(instr @load ((in src (window f32 2 4)) (out dst (window f32 2 4)))
  (c "ld({src_data}, {dst_data});")
  (assert (== (read-config @Load stride) (stride src 0)))
  (for i 0 2 (for j 0 4 (assign (dst i j) (src i j)))))

(proc @p ((in A (f32 8 4)) (out B (f32 8 4)))
  (for i 0 4
    (write-config @Load stride (stride A 0))
    (call @load (window A (: (* 2 i) (+ (* 2 i) 2)) (: 0 4))
      (window B (: (* 2 i) (+ (* 2 i) 2)) (: 0 4)))))
)";

TEST(WriteConfigTest, AValueLiveAtTheEndMakesTheProcClobberTheField) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(WriteConfig(module, testing::StmtAt(module, p, {2}).after(),
                          *module.Find("@Cfg"), "scale",
                          *Build::Float(module, 3.0))
                  .ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (clobbers @Cfg scale)
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (x i))))
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (y i))))
  (write-config @Cfg scale 3.0))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
  // The declaration is there already for the next write.
  ASSERT_TRUE(WriteConfig(module, testing::StmtAt(module, p, {3}).after(),
                          *module.Find("@Cfg"), "scale",
                          *Build::Float(module, 4.0))
                  .ok());
  text = Print(module);
  EXPECT_EQ(text.find("(clobbers @Cfg scale)"),
            text.rfind("(clobbers @Cfg scale)"));
}

TEST(WriteConfigTest, ACallerTheClobberReachesTheEndOfClobbersItToo) {
  // @mid leaves what @p leaves, and so does @inner (through a loop that
  // certainly runs); @top writes the field after its calls.
  std::string with_callers = std::string(kText) + R"(
(proc @mid ((in x (f32 4)) (out y (f32 4)))
  (call @p x y))

(proc @inner ((in x (f32 4)) (out y (f32 4)))
  (for i 0 2 (call @mid x y)))

(proc @top ((in x (f32 4)) (out y (f32 4)))
  (call @inner x y)
  (write-config @Cfg scale 1.0))
)";
  ir::Module module = ReadVerified(with_callers);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(WriteConfig(module, testing::StmtAt(module, p, {2}).after(),
                          *module.Find("@Cfg"), "scale",
                          *Build::Float(module, 3.0))
                  .ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc @mid")),
            R"((proc @mid ((in x (f32 4)) (out y (f32 4))) (clobbers @Cfg scale) (call @p x y))

(proc @inner ((in x (f32 4)) (out y (f32 4)))
  (clobbers @Cfg scale)
  (for i 0 2 (call @mid x y)))

(proc @top ((in x (f32 4)) (out y (f32 4)))
  (call @inner x y)
  (write-config @Cfg scale 1.0))
)");
  for (const char* proc : {"@p", "@mid", "@inner", "@top"}) {
    EXPECT_TRUE(ir::VerifyProc(module, ProcNamed(module, proc)).ok());
  }
  EXPECT_TRUE(SameValues(with_callers, module).ok());
}

TEST(WriteConfigTest, RejectsAClobberACallerReads) {
  std::string with_caller = std::string(kText) + R"(
(proc @caller ((in x (f32 4)) (out y (f32 4)) (out z (f32 4)))
  (call @p x y)
  (for i 0 4 (assign (z i) (read-config @Cfg scale))))
)";
  ir::Module module = ReadVerified(with_caller);
  ir::Node& p = ProcNamed(module, "@p");
  std::string before = Print(module);
  absl::Status status =
      WriteConfig(module, testing::StmtAt(module, p, {2}).after(),
                  *module.Find("@Cfg"), "scale", *Build::Float(module, 3.0));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_NE(status.message().find(
                "'(read-config @Cfg scale)' reads @Cfg.scale, which the call "
                "to '@p' before it clobbers: write it first"),
            std::string::npos)
      << status;
  EXPECT_EQ(Print(module), before);
}

// The value written before the loop is dead: every iteration writes the
// field before it reads it.
TEST(WriteConfigTest, HoistsAWriteEveryIterationOverwritesFirst) {
  ir::Module module = ReadVerified(kLoads);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(WriteConfig(module, testing::StmtAt(module, p, {0}).before(),
                          *module.Find("@Load"), "stride",
                          *Build::Stride(module, *ir::FindParam(p, "A"), 0))
                  .ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in A (f32 8 4)) (out B (f32 8 4)))
  (write-config @Load stride (stride A 0))
  (for i 0 4
    (write-config @Load stride (stride A 0))
    (call @load
      (window A (: (* 2 i) (+ (* 2 i) 2)) (: 0 4))
      (window B (: (* 2 i) (+ (* 2 i) 2)) (: 0 4)))))
)");
  EXPECT_TRUE(SameValues(kLoads, module).ok());
}

TEST(WriteConfigTest, RejectsAWriteALoopMayReadBeforeWritingIt) {
  // The loop may run no iteration: its write does not kill the value; or
  // its iterations read the field before they write it.
  for (const char* proc : {"(proc @q ((size n) (out y (f32 4)))\n"
                           "  (for i 0 n\n"
                           "    (write-config @Cfg scale 2.0)\n"
                           "    (assign (y 0) (read-config @Cfg scale)))\n"
                           "  (assign (y 1) (read-config @Cfg scale)))\n",
                           "(proc @q ((size n) (out y (f32 4)))\n"
                           "  (for i 0 4\n"
                           "    (assign (y i) (read-config @Cfg scale))\n"
                           "    (write-config @Cfg scale 2.0)))\n"}) {
    ir::Module module =
        ReadVerified(absl::StrCat("(config @Cfg (scale f32))\n\n", proc));
    ir::Node& q = ProcNamed(module, "@q");
    std::string before = Print(module);
    absl::Status status =
        WriteConfig(module, testing::StmtAt(module, q, {0}).before(),
                    *module.Find("@Cfg"), "scale", *Build::Float(module, 3.0));
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
    EXPECT_NE(status.message().find("reads @Cfg.scale after"),
              std::string::npos)
        << status;
    EXPECT_EQ(Print(module), before);
  }
}

}  // namespace
}  // namespace tessel::primitives
