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

TEST(SourceTest, OffsetsAndLineColumnsRoundTrip) {
  SourceRef source = MakeSource("f.tir", "ab\ncd\n\nlast");
  EXPECT_EQ(source->Offset(1, 1), 0u);
  EXPECT_EQ(source->Offset(2, 2), 4u);
  EXPECT_EQ(source->Offset(1, 3), 2u);  // line 1's newline
  EXPECT_EQ(source->Offset(4, 5), 11u);  // the end of the text
  // Past a line's end, before the first line or column, past the last line.
  EXPECT_EQ(source->Offset(1, 4), std::nullopt);
  EXPECT_EQ(source->Offset(4, 6), std::nullopt);
  EXPECT_EQ(source->Offset(0, 1), std::nullopt);
  EXPECT_EQ(source->Offset(2, 0), std::nullopt);
  EXPECT_EQ(source->Offset(5, 1), std::nullopt);
  for (uint32_t offset = 0; offset <= 11; ++offset) {
    auto [line, col] = source->LineColumn(offset);
    EXPECT_EQ(source->Offset(line, col), offset) << line << ":" << col;
  }
  EXPECT_EQ(source->LineColumn(7), std::make_pair(4, 1));
  EXPECT_EQ(source->LineColumn(6), std::make_pair(3, 1));
}

TEST(SourceTest, DiagnosticHasLineAndCaret) {
  Location loc{MakeSource("k.tir", "(proc\n  (bad x))\n"), 2, 4};
  EXPECT_EQ(FormatDiagnostic(loc, "unknown form 'bad'"),
            "k.tir:2:4: error: unknown form 'bad'\n  (bad x))\n   ^");
}

TEST(SourceTest, DiagnosticShowsAWindowOfALongLine) {
  std::string text = std::string(1000, 'a') + "!" + std::string(1000, 'b');
  Location loc{MakeSource("long.tir", text), 1, 1001};
  std::string diagnostic = FormatDiagnostic(loc, "bad");
  std::string shown =
      "..." + std::string(80, 'a') + "!" + std::string(79, 'b') + "...";
  EXPECT_EQ(diagnostic, "long.tir:1:1001: error: bad\n" + shown + "\n" +
                            std::string(83, ' ') + "^");
  // At the start of the line, the window starts there.
  Location first{loc.source, 1, 1};
  EXPECT_EQ(FormatDiagnostic(first, "bad"),
            "long.tir:1:1: error: bad\n" + std::string(160, 'a') + "...\n^");
}

TEST(SourceTest, DiagnosticShowsControlCharactersAsQuestionMarks) {
  Location loc{MakeSource("z.bin", std::string("\0\0\x1b[2J\tx", 8)), 1, 8};
  EXPECT_EQ(FormatDiagnostic(loc, "bad"),
            "z.bin:1:8: error: bad\n???[2J\tx\n      \t^");
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
