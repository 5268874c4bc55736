#include "targets/target_forms.h"

#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/forms.h"
#include "libs/ir/syntax.h"
#include "libs/ir/testing.h"
#include "libs/verify/verifier.h"

namespace tessel::targets {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr char kKernel[] = R"tir(
(proc @kernel ((inout C (f32 16)))
  (for i 0 16 (assign (C i) (* (C i) 2.0))))
)tir";

ir::Module Verified(const std::string& text) {
  ir::Module module = ir::ReadOk(text);
  EXPECT_TRUE(ir::VerifyModule(module).ok());
  return module;
}

std::vector<std::string> FormNames(const ir::Module& module) {
  std::vector<std::string> names;
  for (const ir::Node* form : module.forms()) names.push_back(form->name());
  return names;
}

TEST(TargetFormsTest, EveryLibraryReadsAndVerifies) {
  ASSERT_EQ(TargetFormFiles().size(), 5u);
  for (const EmbeddedFile& file : TargetFormFiles()) {
    auto module = ir::ReadText(MakeSource(file.path, file.text));
    ASSERT_TRUE(module.ok()) << module.status();
    EXPECT_TRUE(ir::VerifyModule(*module).ok()) << file.path;
  }
}

TEST(TargetFormsTest, ImportsAnInstructionWithItsMemory) {
  ir::Module module = Verified(kKernel);
  ir::Node* kernel = module.Find("@kernel");
  const ir::Node* loop = ir::BodyOf(*kernel)[0];
  auto fmadd = ImportTargetForm(module, "@mm512_fmadd_ps");
  ASSERT_TRUE(fmadd.ok()) << fmadd.status();
  EXPECT_TRUE((*fmadd)->is(ir::Op::kInstr));
  EXPECT_THAT(FormNames(module),
              ElementsAre("@kernel", "@AVX512", "@mm512_fmadd_ps"));
  // The module's own nodes are where they were, and everything verifies.
  EXPECT_EQ(module.Find("@kernel"), kernel);
  EXPECT_EQ(ir::BodyOf(*kernel)[0], loop);
  EXPECT_TRUE(ir::VerifyModule(module).ok());
  // The instruction's location is in its library.
  EXPECT_THAT((*fmadd)->loc().source->name(), "targets/x86/avx512.tir");
}

TEST(TargetFormsTest, ImportsWhatTheModuleLacksOnly) {
  ir::Module module = Verified(kKernel);
  ASSERT_TRUE(ImportTargetForm(module, "mm512_loadu_ps").ok());
  auto again = ImportTargetForm(module, "@mm512_loadu_ps");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, module.Find("@mm512_loadu_ps"));
  ASSERT_TRUE(ImportTargetForm(module, "@mm512_storeu_ps").ok());
  EXPECT_THAT(
      FormNames(module),
      ElementsAre("@kernel", "@AVX512", "@mm512_loadu_ps", "@mm512_storeu_ps"));
}

TEST(TargetFormsTest, ImportsConfigurationsTheInstructionReads) {
  ir::Module module = Verified(kKernel);
  ASSERT_TRUE(ImportTargetForm(module, "@do_ld_i8_id1").ok());
  EXPECT_THAT(FormNames(module),
              ElementsAre("@kernel", "@GEMM_SCRATCH", "@ConfigLoad_id1",
                          "@do_ld_i8_id1"));
  ASSERT_TRUE(ImportTargetForm(module, "@fmacs").ok());
  EXPECT_EQ(FormNames(module).back(), "@fmacs");
  EXPECT_TRUE(ir::VerifyModule(module).ok());
}

TEST(TargetFormsTest, TheModulesOwnFormComesFirst) {
  ir::Module module = Verified(R"tir(
(proc @mm512_loadu_ps ((out y (f32 4))) (assign (y 0) 1.0))
)tir");
  auto own = ImportTargetForm(module, "@mm512_loadu_ps");
  ASSERT_TRUE(own.ok());
  EXPECT_TRUE((*own)->is(ir::Op::kProc));
  EXPECT_EQ(module.forms().size(), 1u);
}

TEST(TargetFormsTest, RejectsUnknownNamesAndConflictingForms) {
  ir::Module module = Verified(kKernel);
  auto unknown = ImportTargetForm(module, "@mm1024_loadu_ps");
  EXPECT_EQ(unknown.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(unknown.status().message(),
            "no target library defines '@mm1024_loadu_ps'");

  ir::Module other = Verified(R"tir(
(memory @AVX512 (alloc "{type} {name}[{size}];") (addressable false))
(proc @kernel ((inout C (f32 16)))
  (for i 0 16 (assign (C i) (* (C i) 2.0))))
)tir");
  auto conflict = ImportTargetForm(other, "@mm512_loadu_ps");
  EXPECT_EQ(conflict.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(conflict.status().message(),
              HasSubstr("the module's @AVX512 differs from "
                        "targets/x86/avx512.tir's"));
  EXPECT_THAT(FormNames(other), ElementsAre("@AVX512", "@kernel"));
}

}  // namespace
}  // namespace tessel::targets
