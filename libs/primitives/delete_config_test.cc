#include "libs/primitives/delete_config.h"

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

(proc @p ((in x (f32 4)) (out y (f32 4)))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (x i))))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (y i))))
  (write-config @Cfg scale 0.0))
)";

TEST(DeleteConfigTest, DeletesAWriteOfTheValueTheFieldHolds) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(DeleteConfig(module, testing::StmtAt(module, p, {2})).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in x (f32 4)) (out y (f32 4)))
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (x i))))
  (for i 0 4 (assign (y i) (* (read-config @Cfg scale) (y i))))
  (write-config @Cfg scale 0.0))
)");
  EXPECT_TRUE(SameValues(kText, module).ok());
}

TEST(DeleteConfigTest, RejectsAWriteThatIsRead) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = DeleteConfig(module, testing::StmtAt(module, p, {0}));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot delete '(write-config @Cfg scale 2.0)': '(for i 0 4 "
            "(assign (y i) (* (read-config @Cfg scale) (x i))))' reads "
            "@Cfg.scale after '(write-config @Cfg scale 2.0)'");
}

TEST(DeleteConfigTest, RejectsAWriteLiveAtTheEnd) {
  ir::Module module = ReadVerified(kText);
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = DeleteConfig(module, testing::StmtAt(module, p, {4}));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot delete '(write-config @Cfg scale 0.0)': the value "
            "'(write-config @Cfg scale 0.0)' writes is live at the end of "
            "@p, whose callers see the configuration");
}

TEST(DeleteConfigTest, DeletesAWriteLiveAtTheEndOfAFieldTheProcClobbers) {
  std::string text = kText;
  text.replace(text.find("  (write-config"), 0, "  (clobbers @Cfg scale)\n");
  ir::Module module = ReadVerified(text);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(DeleteConfig(module, testing::StmtAt(module, p, {4})).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  EXPECT_TRUE(SameValues(text, module).ok());
}

TEST(DeleteConfigTest, DeletesAWriteInALoopOnceHoisted) {
  // Exo's section 2.4: the configuration written before the loop holds
  // what each iteration writes again.
  constexpr char kHoisted[] = R"((config @Load (stride stride))

(instr @load ((in src (window f32 2 4)) (out dst (window f32 2 4)))
  (c "ld({src_data}, {dst_data});")
  (assert (== (read-config @Load stride) (stride src 0)))
  (for i 0 2 (for j 0 4 (assign (dst i j) (src i j)))))

(proc @p ((in A (f32 8 4)) (out B (f32 8 4)))
  (clobbers @Load stride)
  (write-config @Load stride (stride A 0))
  (for i 0 4
    (write-config @Load stride (stride A 0))
    (call @load (window A (: (* 2 i) (+ (* 2 i) 2)) (: 0 4))
      (window B (: (* 2 i) (+ (* 2 i) 2)) (: 0 4)))))
)";
  ir::Module module = ReadVerified(kHoisted);
  ir::Node& p = ProcNamed(module, "@p");
  ASSERT_TRUE(DeleteConfig(module, testing::StmtAt(module, p, {1, 0})).ok());
  ASSERT_TRUE(ir::VerifyProc(module, p).ok());
  std::string text = Print(module);
  EXPECT_EQ(text.substr(text.find("(proc")),
            R"((proc @p ((in A (f32 8 4)) (out B (f32 8 4)))
  (clobbers @Load stride)
  (write-config @Load stride (stride A 0))
  (for i 0 4
    (call @load
      (window A (: (* 2 i) (+ (* 2 i) 2)) (: 0 4))
      (window B (: (* 2 i) (+ (* 2 i) 2)) (: 0 4)))))
)");
  EXPECT_TRUE(SameValues(kHoisted, module).ok());
}

TEST(DeleteConfigTest, RejectsAWriteAfterACallThatClobbersTheField) {
  // The write before the call wrote the same value, but @q may leave any.
  ir::Module module = ReadVerified(R"((config @Cfg (scale f32))

(proc @q ((out z (f32 4)))
  (clobbers @Cfg scale)
  (for i 0 4 (assign (z i) 0.0)))

(proc @p ((out y (f32 4)) (out z (f32 4)))
  (write-config @Cfg scale 2.0)
  (call @q z)
  (write-config @Cfg scale 2.0)
  (for i 0 4 (assign (y i) (read-config @Cfg scale))))
)");
  ir::Node& p = ProcNamed(module, "@p");
  absl::Status status = DeleteConfig(module, testing::StmtAt(module, p, {2}));
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "cannot delete '(write-config @Cfg scale 2.0)': '(for i 0 4 "
            "(assign (y i) (read-config @Cfg scale)))' reads @Cfg.scale after "
            "'(write-config @Cfg scale 2.0)'");
}

}  // namespace
}  // namespace tessel::primitives
