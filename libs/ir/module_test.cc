#include "libs/ir/module.h"

#include "gtest/gtest.h"

namespace tessel {
namespace {

absl::StatusOr<Module> Read(const std::string& text) {
  return ReadModule(MakeSource("m.tir", text));
}

TEST(ModuleTest, ParsesProcedureSignature) {
  auto module = Read(
      "(proc @gemv ((size n) (in alpha f32) (in A (f32 n 4) @DRAM)\n"
      "             (out y (f32 n)))\n"
      "  (assert (<= n 16))\n"
      "  (for i 0 n (assign (y i) 0.0)))");
  ASSERT_TRUE(module.ok()) << module.status();
  const Procedure* proc = module->FindProcedure("@gemv");
  ASSERT_NE(proc, nullptr);
  ASSERT_EQ(proc->params.size(), 4u);
  EXPECT_EQ(proc->params[0].kind, ParamKind::kSize);
  EXPECT_TRUE(proc->params[1].type.is_scalar());
  EXPECT_EQ(proc->params[2].type.rank(), 2);
  EXPECT_EQ(proc->params[2].memory, "@DRAM");
  EXPECT_TRUE(proc->params[3].is_written());
  EXPECT_EQ(proc->asserts.size(), 1u);
  EXPECT_EQ(proc->body.size(), 1u);
}

TEST(ModuleTest, ParsesTargetForms) {
  auto module = Read(
      "(memory @SP (alloc \"static {type} {name}[{size}];\") (addressable "
      "false))\n"
      "(config @Cfg (stride_a stride) (scale f32))\n"
      "(instr @ld ((size n) (in s (window f32 n) @DRAM) (out d (window f32 n) "
      "@SP)) (c \"ld({s_data}, {d_data}, {n});\") (for i 0 n (assign (d i) (s "
      "i))))");
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_FALSE(module->FindMemory("@SP")->addressable);
  EXPECT_TRUE(module->FindMemory("@DRAM")->addressable);
  EXPECT_NE(module->FindConfig("@Cfg")->FindField("scale"), nullptr);
  const Procedure* ld = module->FindProcedure("@ld");
  ASSERT_NE(ld, nullptr);
  EXPECT_TRUE(ld->is_instr);
  EXPECT_EQ(ld->c_template, "ld({s_data}, {d_data}, {n});");
}

TEST(ModuleTest, ParsesFunction) {
  auto module = Read(
      "(func @f ((x (f32 4))) ((y (f32 4))) (build 4 (lam (index x %0))))");
  ASSERT_TRUE(module.ok()) << module.status();
  const Function* func = module->FindFunction("@f");
  ASSERT_NE(func, nullptr);
  EXPECT_EQ(func->results[0].name, "y");
  EXPECT_TRUE(func->term->is_form("build"));
}

TEST(ModuleTest, ReportsStructuralErrors) {
  auto twice = Read("(proc @p ())\n(proc @p ())");
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.status().message().find("m.tir:2:7: error: '@p' is already"),
            std::string::npos);
  EXPECT_FALSE(Read("(frob @x)").ok());
  EXPECT_FALSE(Read("(proc p ())").ok());
  EXPECT_FALSE(Read("(proc @p ((in A (f33 4))))").ok());
  EXPECT_FALSE(Read("(proc @p ((in A (f32 0))))").ok());
  EXPECT_FALSE(Read("(proc @p () (for i 0 4) (assert true))").ok());
  EXPECT_FALSE(Read("(instr @i ())").ok());
  EXPECT_FALSE(Read("").ok());
}

TEST(ModuleTest, FindsTheEntry) {
  auto module = Read(
      "(instr @i ((out x f32)) (c \"\") (assign x 0.0))\n"
      "(proc @helper ((out x f32)) (call @i x))\n"
      "(proc @main ((out x f32)) (call @helper x))");
  ASSERT_TRUE(module.ok()) << module.status();
  auto entry = FindEntry(*module, "");
  ASSERT_TRUE(entry.ok()) << entry.status();
  EXPECT_EQ(entry->name(), "@main");
  EXPECT_EQ(FindEntry(*module, "helper")->name(), "@helper");
  EXPECT_FALSE(FindEntry(*module, "i").ok());
  EXPECT_FALSE(FindEntry(*module, "nope").ok());
  auto two = Read("(proc @a ()) (proc @b ())");
  ASSERT_TRUE(two.ok());
  EXPECT_NE(FindEntry(*two, "").status().message().find("several entries"),
            std::string::npos);
}

}  // namespace
}  // namespace tessel
