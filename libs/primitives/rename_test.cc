#include "libs/primitives/rename.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using ::testing::HasSubstr;
using testing::Print;
using testing::ProcNamed;
using testing::ReadVerified;
using testing::SameValues;

constexpr char kCopy[] =
    "(proc @copy ((size n) (in x (f32 n)) (out y (f32 n)))\n"
    "  (for i 0 n (assign (y i) (x i))))\n";

constexpr char kCaller[] =
    "(proc @inner ((in x (f32 4)) (out y (f32 4)))\n"
    "  (for i 0 4 (assign (y i) (* 2.0 (x i)))))\n"
    "\n"
    "(proc @outer ((in x (f32 4)) (out y (f32 4)))\n"
    "  (call @inner x y))\n";

TEST(RenameTest, RenamesTheProcedure) {
  ir::Module module = ReadVerified(kCopy);
  ir::Node& proc = ProcNamed(module, "@copy");
  ASSERT_TRUE(RenameProc(module, proc, "copy_fast").ok());
  ir::Node* renamed = module.Find("@copy_fast");
  ASSERT_NE(renamed, nullptr);
  EXPECT_EQ(module.Find("@copy"), nullptr);
  EXPECT_TRUE(ir::VerifyProc(module, *renamed).ok());
  EXPECT_EQ(Print(module),
            "(proc @copy_fast ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 n (assign (y i) (x i))))\n");
  EXPECT_TRUE(SameValues(kCopy, module, {{"n", 7}}).ok());
  EXPECT_TRUE(SameValues(kCopy, module, {{"n", 1}}).ok());
}

TEST(RenameTest, CallsFollowTheRenamedProcedure) {
  ir::Module module = ReadVerified(kCaller);
  ASSERT_TRUE(RenameProc(module, ProcNamed(module, "@inner"), "twice").ok());
  EXPECT_TRUE(ir::VerifyModule(module).ok());
  EXPECT_EQ(Print(module),
            "(proc @twice ((in x (f32 4)) (out y (f32 4)))\n"
            "  (for i 0 4 (assign (y i) (* 2.0 (x i)))))\n"
            "\n"
            "(proc @outer ((in x (f32 4)) (out y (f32 4))) (call @twice x "
            "y))\n");
  EXPECT_TRUE(SameValues(kCaller, module).ok());
}

TEST(RenameTest, CursorsToTheProcedureFollow) {
  ir::Module module = ReadVerified(kCopy);
  ir::Cursor cursor(module, &ProcNamed(module, "@copy"));
  ASSERT_TRUE(RenameProc(module, *cursor.node(), "other").ok());
  ASSERT_TRUE(cursor.is_valid());
  EXPECT_EQ(cursor->name(), "@other");
}

TEST(RenameTest, RejectsANameThatIsNotFresh) {
  ir::Module module = ReadVerified(kCaller);
  std::string before = Print(module);
  absl::Status status =
      RenameProc(module, ProcNamed(module, "@inner"), "outer");
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(),
              HasSubstr("the new name must be fresh: @outer is already a "
                        "form of the module"));
  status = RenameProc(module, ProcNamed(module, "@inner"), "inner");
  EXPECT_THAT(status.message(), HasSubstr("the procedure's own name"));
  status = RenameProc(module, ProcNamed(module, "@inner"), "DRAM");
  EXPECT_THAT(status.message(), HasSubstr("@DRAM is already a form"));
  EXPECT_EQ(Print(module), before);
}

TEST(RenameTest, RejectsANameThatIsNotAnIdentifier) {
  ir::Module module = ReadVerified(kCopy);
  for (const char* name : {"", "@copy2", "2copy", "a-b"}) {
    absl::Status status = RenameProc(module, ProcNamed(module, "@copy"), name);
    EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument) << name;
    EXPECT_THAT(status.message(), HasSubstr("is not a procedure name"));
  }
}

TEST(RenameTest, SpecFollowsExo) {
  PrimitiveSpec spec = RenameSpec();
  EXPECT_EQ(spec.name, "rename");
  ASSERT_EQ(spec.params.size(), 1u);
  EXPECT_EQ(spec.params[0].name, "name");
  EXPECT_EQ(spec.params[0].kind, ArgKind::kString);
  EXPECT_FALSE(spec.params[0].default_text.has_value());
}

}  // namespace
}  // namespace tessel::primitives
