#include "libs/support/source.h"

#include "gtest/gtest.h"

namespace tessel {
namespace {

TEST(SourceTest, LinesAreSplitOnNewlines) {
  SourceBuffer buffer("f.tir", "ab\ncd\n\nlast");
  EXPECT_EQ(buffer.Line(1), "ab");
  EXPECT_EQ(buffer.Line(2), "cd");
  EXPECT_EQ(buffer.Line(3), "");
  EXPECT_EQ(buffer.Line(4), "last");
  EXPECT_EQ(buffer.Line(5), "");
}

TEST(SourceTest, DiagnosticHasLineAndCaret) {
  Location loc{MakeSource("k.tir", "(proc\n  (bad x))\n"), 2, 4};
  EXPECT_EQ(FormatDiagnostic(loc, "unknown form 'bad'"),
            "k.tir:2:4: error: unknown form 'bad'\n  (bad x))\n   ^");
}

TEST(SourceTest, DiagnosticWithoutLocationNamesFile) {
  Location loc{MakeSource("k.tir", ""), 0, 0};
  EXPECT_EQ(FormatDiagnostic(loc, "empty"), "k.tir: error: empty");
  EXPECT_EQ(FormatDiagnostic(Location{}, "x"), "error: x");
}

TEST(SourceTest, MissingFileIsAnError) {
  auto source = ReadSource("/nonexistent/file.tir");
  ASSERT_FALSE(source.ok());
  EXPECT_NE(source.status().message().find("cannot open"), std::string::npos);
}

}  // namespace
}  // namespace tessel
