#include "libs/emitc/c_template.h"

#include "gtest/gtest.h"

namespace tessel::emitc {
namespace {

PlaceholderResolver Values() {
  return [](absl::string_view name) -> absl::StatusOr<std::optional<CExpr>> {
    if (name == "n") return Binary("+", Primary("i"), IntLiteral(1));
    if (name == "src") return Primary("(struct w){ a, { 4, 1 } }");
    if (name == "p") return Unary("*", Primary("p"));
    return std::nullopt;
  };
}

TEST(CTemplateTest, FindsPlaceholders) {
  std::vector<TemplatePiece> pieces = ParseTemplate("f({a}, { x(); }, {0})");
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[0].text, "f(");
  EXPECT_TRUE(pieces[1].is_placeholder);
  EXPECT_EQ(pieces[1].text, "a");
  EXPECT_TRUE(pieces[1].is_argument);
  EXPECT_EQ(pieces[2].text, ", { x(); }, {0})");
}

TEST(CTemplateTest, ParenthesisesValuesOutsideArguments) {
  auto text = ExpandTemplate("f({n}); g({n} * 2); {p}[0] = {p};", Location{},
                             "test", Values());
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text, "f(i + 1); g((i + 1) * 2); (*p)[0] = (*p);");
}

TEST(CTemplateTest, ProtectsCommasFromMacros) {
  auto text =
      ExpandTemplate("mvin({src}.data, {src})", Location{}, "test", Values());
  ASSERT_TRUE(text.ok()) << text.status();
  EXPECT_EQ(*text,
            "mvin(((struct w){ a, { 4, 1 } }).data, "
            "((struct w){ a, { 4, 1 } }))");
}

TEST(CTemplateTest, UnknownPlaceholderIsAnError) {
  auto text =
      ExpandTemplate("f({dst});", Location{}, "the template of @f", Values());
  ASSERT_FALSE(text.ok());
  EXPECT_NE(text.status().message().find(
                "unknown placeholder {dst} in the template of @f"),
            std::string::npos)
      << text.status();
}

}  // namespace
}  // namespace tessel::emitc
