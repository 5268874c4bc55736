// AppendForms: forms read into an existing module, whose nodes stay put.
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/ir/testing.h"
#include "libs/sexpr/reader.h"

namespace tessel::ir {
namespace {

std::vector<Sexpr> Forms(const std::string& text) {
  auto forms = ReadSexprs(MakeSource("lib.tir", text));
  EXPECT_TRUE(forms.ok()) << forms.status();
  return forms.ok() ? *std::move(forms) : std::vector<Sexpr>();
}

constexpr char kModule[] = R"tir(
(proc @copy ((in x (f32 4)) (out y (f32 4)))
  (for i 0 4 (assign (y i) (x i))))
)tir";

TEST(AppendFormsTest, AddsFormsThatNameTheModulesAndEachOthers) {
  Module module = ReadOk(kModule);
  Node* copy = module.Find("@copy");
  Node* loop = copy->operand(2);
  ASSERT_TRUE(AppendForms(module, Forms(R"tir(
(memory @REG (alloc "{type} {name}[{size}];") (free "") (addressable false))
(proc @twice ((in x (f32 4)) (out y (f32 4)) (out z (f32 4)))
  (call @copy x y)
  (call @copy x z))
)tir"))
                  .ok());
  ASSERT_EQ(module.forms().size(), 3u);
  // The module's nodes are where they were.
  EXPECT_EQ(module.Find("@copy"), copy);
  EXPECT_EQ(copy->operand(2), loop);
  EXPECT_TRUE(module.Contains(loop));
  const Node* twice = module.Find("@twice");
  ASSERT_NE(twice, nullptr);
  EXPECT_EQ(twice->operand(3)->def(), copy);
  EXPECT_NE(module.Find("@REG"), nullptr);
}

TEST(AppendFormsTest, AddsNothingOnAnError) {
  Module module = ReadOk(kModule);
  absl::Status status = AppendForms(module, Forms(R"tir(
(proc @a ((out y (f32 4))) (call @b y))
(proc @copy ((out y (f32 4))) (assign (y 0) 1.0))
)tir"));
  EXPECT_THAT(
      std::string(status.message()),
      testing::StartsWith("lib.tir:3:7: error: '@copy' is defined twice"));
  EXPECT_EQ(module.forms().size(), 1u);
  EXPECT_EQ(module.Find("@a"), nullptr);

  status = AppendForms(module, Forms(R"tir(
(proc @a ((out y (f32 4))) (call @b y))
)tir"));
  EXPECT_THAT(
      std::string(status.message()),
      testing::StartsWith("lib.tir:2:34: error: unknown procedure '@b'"));
  EXPECT_EQ(module.forms().size(), 1u);
  EXPECT_EQ(module.Find("@a"), nullptr);
}

}  // namespace
}  // namespace tessel::ir
