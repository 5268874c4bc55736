#include "libs/emitcs1/emit_cs1.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/emitc/emit_c.h"
#include "libs/emitcs1/configurations.h"
#include "libs/verify/read.h"

namespace tessel::emitcs1 {
namespace {

// A target of two instructions, as targets/cs1/cs1.tir writes them.
constexpr char kTarget[] = R"(
(memory @PE (alloc "static {type} {name}[{size}];") (free "")
  (addressable true))
(instr @fzeros ((size n0) (size n1) (size n2) (size n3)
                (out dst (window f32 n0 n1 n2 n3) @PE))
  (c "cs1_fmovs_scalar({dst}, 0.0f);")
  (for i0 0 n0 (for i1 0 n1 (for i2 0 n2 (for i3 0 n3
    (assign (dst i0 i1 i2 i3) 0.0))))))
(instr @fmacs ((size n0) (size n1) (size n2) (size n3)
               (inout dst (window f32 n0 n1 n2 n3) @PE)
               (in a (window f32 n0 n1 n2 n3) @PE)
               (in s f32))
  (c "cs1_fmacs({dst}, {dst}, {a}, {s});")
  (for i0 0 n0 (for i1 0 n1 (for i2 0 n2 (for i3 0 n3
    (reduce (dst i0 i1 i2 i3) (* (a i0 i1 i2 i3) s)))))))
)";

constexpr char kConv1d[] = R"(
(pe-program @conv1d ((in x (f32 16)) (in W (f32 2 3)) (out y (f32 2 14)))
  (grid (px 1) (py 2))
  (local W_local (f32 1 3) @PE (holds W py 0))
  (local y_local (f32 1 18) @PE (holds y py -2))
  (task (call @fzeros 18 1 1 1 (dsd y_local 0 (18 1))))
  (task (recv x (i) v (>= i 1))
    (call @fmacs 3 1 1 1 (dsd y_local (+ i 2) (3 -1)) (dsd W_local 0 (3 1))
      v)))
)";

absl::StatusOr<ir::Module> Read(const std::string& text) {
  return ir::ReadModule(MakeSource("test.tir", text));
}

TEST(Configurations, OnePerDistinctShapeInOrderOfAppearance) {
  auto module = Read(std::string(kTarget) + kConv1d);
  ASSERT_TRUE(module.ok()) << module.status();
  auto configs = Configurations::Collect(*module);
  ASSERT_TRUE(configs.ok()) << configs.status();
  ASSERT_EQ(configs->shapes().size(), 3u);
  EXPECT_EQ(configs->shapes()[0], (DescriptorShape{{18, 1}}));
  EXPECT_EQ(configs->shapes()[1], (DescriptorShape{{3, -1}}));
  EXPECT_EQ(configs->shapes()[2], (DescriptorShape{{3, 1}}));
}

TEST(EmitCs1, TasksReadTheirElementAndGuardTheirCondition) {
  auto module = Read(std::string(kTarget) + kConv1d);
  ASSERT_TRUE(module.ok()) << module.status();
  auto program = FindPeProgram(*module, "");
  ASSERT_TRUE(program.ok()) << program.status();
  auto text = EmitCs1(*module, **program, /*harness=*/false);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_NE(text->find("static void conv1d_task_1(void) {\n"
                       "  const int64_t i = cs1_recv_index(0);\n"
                       "  const float v = cs1_recv_f32();\n"
                       "  if (i >= 1) {\n"
                       "    cs1_fmacs(cs1_dsd32(1, y_local, i + 2), "
                       "cs1_dsd32(1, y_local, i + 2), cs1_dsd32(2, W_local, "
                       "0), v);\n"
                       "  }\n"
                       "}\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("  cs1_recv_task(0 /* x */, conv1d_task_1);\n"),
            std::string::npos);
  EXPECT_EQ(text->find("int main"), std::string::npos);
}

TEST(EmitCs1, HarnessHoldsTheApiAndTheHost) {
  auto module = Read(std::string(kTarget) + kConv1d);
  ASSERT_TRUE(module.ok()) << module.status();
  auto text = EmitCs1(*module, **FindPeProgram(*module, "@conv1d"),
                      /*harness=*/true);
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(text->find("#include \"cs1_api.h\""), std::string::npos);
  EXPECT_NE(text->find("void cs1_configure(int config"), std::string::npos);
  EXPECT_NE(text->find("int main(int argc, char **argv)"), std::string::npos);
  EXPECT_EQ(text->find("cs1:host"), std::string::npos);
}

TEST(FindPeProgram, ALoopLevelModuleHasNone) {
  auto module = Read(std::string(kTarget));
  ASSERT_TRUE(module.ok()) << module.status();
  auto program = FindPeProgram(*module, "");
  ASSERT_FALSE(program.ok());
  EXPECT_NE(program.status().message().find("the module has no pe-program"),
            std::string::npos);
  module = Read(std::string(kTarget) + kConv1d);
  ASSERT_TRUE(module.ok()) << module.status();
  EXPECT_FALSE(FindPeProgram(*module, "conv2d").ok());
}

TEST(EmitC, StillRejectsADescriptor) {
  // emit-c's translator writes a dsd only with emit-cs1's extension.
  auto module = Read(std::string(kTarget) +
                     "(proc @zero ((out t (f32 8) @PE))\n"
                     "  (call @fzeros 8 1 1 1 (dsd t 0 (8 1))))\n");
  ASSERT_TRUE(module.ok()) << module.status();
  auto text = emitc::EmitC(*module);
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find("a dsd is a CS-1 SIMD descriptor"),
            std::string::npos)
      << text.status();
}

}  // namespace
}  // namespace tessel::emitcs1
