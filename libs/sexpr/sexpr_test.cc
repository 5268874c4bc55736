#include <string>

#include "gtest/gtest.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"

namespace tessel {
namespace {

std::vector<Sexpr> ReadOk(const std::string& text) {
  auto forms = ReadSexprs(MakeSource("t.tir", text));
  EXPECT_TRUE(forms.ok()) << forms.status();
  return forms.ok() ? *forms : std::vector<Sexpr>{};
}

std::string ReadError(const std::string& text) {
  auto forms = ReadSexprs(MakeSource("t.tir", text));
  EXPECT_FALSE(forms.ok());
  return forms.ok() ? "" : std::string(forms.status().message());
}

// Checks that ListItemOffsets finds the items of `list` (read from
// `source`) and of every list inside it where the reader located them.
void ExpectItemOffsets(const SourceRef& source, const Sexpr& list) {
  std::vector<uint32_t> offsets = ListItemOffsets(
      source->text(), *source->Offset(list.loc().line, list.loc().col));
  ASSERT_EQ(offsets.size(), list.size());
  for (size_t i = 0; i < list.size(); ++i) {
    EXPECT_EQ(source->LineColumn(offsets[i]),
              std::make_pair(list[i].loc().line, list[i].loc().col))
        << PrintFlat(list[i]);
    if (list[i].is_list()) ExpectItemOffsets(source, list[i]);
  }
}

TEST(ReaderTest, ItemOffsetsAreWhereTheReaderLocatesItems) {
  SourceRef source = MakeSource(
      "t.tir",
      "; a comment (\n(proc @p ; another )\n  (\"s\\\"(;\" x) -1.5e3\n"
      "\t( a(b)c ) ()\n  \"\" y)\n(f)");
  auto forms = ReadSexprs(source);
  ASSERT_TRUE(forms.ok()) << forms.status();
  for (const Sexpr& form : *forms) ExpectItemOffsets(source, form);
}

TEST(ReaderTest, ReadsAtomsAndLists) {
  auto forms = ReadOk("(a -1 2.5 \"s\\n\" (b)) ; comment\n@x -");
  ASSERT_EQ(forms.size(), 3u);
  const Sexpr& list = forms[0];
  ASSERT_EQ(list.size(), 5u);
  EXPECT_TRUE(list[0].is_symbol("a"));
  EXPECT_EQ(list[1].int_value(), -1);
  EXPECT_DOUBLE_EQ(list[2].float_value(), 2.5);
  EXPECT_EQ(list[3].text(), "s\n");
  EXPECT_TRUE(list[4].is_form("b"));
  EXPECT_TRUE(forms[1].is_symbol("@x"));
  EXPECT_TRUE(forms[2].is_symbol("-"));
}

TEST(ReaderTest, RecordsLocations) {
  auto forms = ReadOk("\n  (for i\n    0)");
  EXPECT_EQ(forms[0].loc().line, 2);
  EXPECT_EQ(forms[0].loc().col, 3);
  EXPECT_EQ(forms[0][2].loc().line, 3);
  EXPECT_EQ(forms[0][2].loc().col, 5);
}

TEST(ReaderTest, RejectsMalformedInput) {
  EXPECT_EQ(ReadError("(a (b c)"),
            "t.tir:1:1: error: unterminated list: no ')' matches this '('\n"
            "(a (b c)\n^");
  EXPECT_NE(ReadError("a)").find("1:2: error: unexpected ')'"),
            std::string::npos);
  EXPECT_NE(ReadError("(\"abc)").find("unterminated string"),
            std::string::npos);
  EXPECT_NE(ReadError("12x").find("malformed number '12x'"), std::string::npos);
  EXPECT_NE(ReadError("99999999999999999999").find("does not fit"),
            std::string::npos);
  EXPECT_NE(ReadError("\"\\q\"").find("unknown escape"), std::string::npos);
}

TEST(ReaderTest, RejectsDeepNesting) {
  std::string deep(kMaxSexprDepth + 1, '(');
  deep += std::string(kMaxSexprDepth + 1, ')');
  EXPECT_NE(ReadError(deep).find("nest deeper"), std::string::npos);
}

TEST(PrinterTest, FloatsStayFloats) {
  EXPECT_EQ(PrintFlat(Sexpr::Float(1.0)), "1.0");
  EXPECT_EQ(PrintFlat(Sexpr::Float(0.1)), "0.1");
  EXPECT_EQ(PrintFlat(Sexpr::Float(1e-30)), "1e-30");
  EXPECT_EQ(PrintFlat(Sexpr::Float(-0.0)), "-0.0");
}

TEST(PrinterTest, BreaksLongFormsAfterHeader) {
  auto forms = ReadOk(
      "(for i 0 64 (for j 0 64 (assign (C i j) 0.0) (for k 0 64 (reduce "
      "(C i j) (* (A i k) (B k j))))))");
  EXPECT_EQ(PrintForms(forms),
            "(for i 0 64\n"
            "  (for j 0 64\n"
            "    (assign (C i j) 0.0)\n"
            "    (for k 0 64 (reduce (C i j) (* (A i k) (B k j))))))\n");
}

// A layout rule as a language gives one: func keeps three header operands.
int FuncHeader(const Sexpr& form) { return form.is_form("func") ? 3 : -1; }

TEST(PrinterTest, OverflowingHeaderOperandsContinueOnTheirOwnLine) {
  auto forms = ReadOk(
      "(func @gemm ((alpha f32) (beta f32) (A (f32 4 4)) (B (f32 4 4)) (C "
      "(f32 4 4))) ((D (f32 4 4))) (build 4 (lam (index C %0))))");
  EXPECT_EQ(PrintForms(forms, FuncHeader),
            "(func @gemm ((alpha f32) (beta f32) (A (f32 4 4)) (B (f32 4 4)) "
            "(C (f32 4 4)))\n"
            "    ((D (f32 4 4)))\n"
            "  (build 4 (lam (index C %0))))\n");
}

TEST(PrinterTest, PrintReadPrintIsIdentity) {
  const std::string text =
      "(proc @p ((in A (f32 64 64)) (out C (f32 64 64)) (in alpha f32)) "
      "(for i 0 64 (assign (C i 0) (* alpha (A i 0))))) (x \"a\\\"b\" -3 "
      "2.5e-07)";
  std::string once = PrintForms(ReadOk(text));
  std::string twice = PrintForms(ReadOk(once));
  EXPECT_EQ(once, twice);
  EXPECT_EQ(ReadOk(once), ReadOk(text));
}

}  // namespace
}  // namespace tessel
