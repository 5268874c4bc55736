#include "libs/kernel/lexer.h"

#include "gtest/gtest.h"

namespace tessel::kernel {
namespace {

std::vector<Token> LexOk(const std::string& text) {
  auto tokens = Lex(MakeSource("t.tk", text));
  EXPECT_TRUE(tokens.ok()) << tokens.status();
  return tokens.ok() ? *tokens : std::vector<Token>{};
}

std::string LexError(const std::string& text) {
  auto tokens = Lex(MakeSource("t.tk", text));
  EXPECT_FALSE(tokens.ok());
  return tokens.ok() ? "" : std::string(tokens.status().message());
}

std::vector<TokenKind> Kinds(const std::vector<Token>& tokens) {
  std::vector<TokenKind> kinds;
  for (const Token& token : tokens) kinds.push_back(token.kind);
  return kinds;
}

TEST(LexerTest, SplitsAStatement) {
  auto tokens = LexOk("all (i) in (N) y[i] += -x[i - 1] * 2; # comment");
  using K = TokenKind;
  EXPECT_EQ(Kinds(tokens),
            (std::vector<K>{
                K::kAll,        K::kLParen,   K::kIdentifier, K::kRParen,
                K::kIn,         K::kLParen,   K::kIdentifier, K::kRParen,
                K::kIdentifier, K::kLBracket, K::kIdentifier, K::kRBracket,
                K::kAddAssign,  K::kMinus,    K::kIdentifier, K::kLBracket,
                K::kIdentifier, K::kMinus,    K::kInt,        K::kRBracket,
                K::kStar,       K::kInt,      K::kSemicolon,  K::kEnd}));
}

TEST(LexerTest, ReadsKeywordsOperatorsAndArrow) {
  using K = TokenKind;
  EXPECT_EQ(Kinds(LexOk("kernel local -> max= min= max(a) = { } : ,")),
            (std::vector<K>{K::kKernel, K::kLocal, K::kArrow, K::kMaxAssign,
                            K::kMinAssign, K::kIdentifier, K::kLParen,
                            K::kIdentifier, K::kRParen, K::kAssign, K::kLBrace,
                            K::kRBrace, K::kColon, K::kComma, K::kEnd}));
}

TEST(LexerTest, ReadsNumbers) {
  auto tokens = LexOk("42 2.5 .5 1. 1e3 2.5e-2");
  ASSERT_EQ(tokens.size(), 7u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kInt);
  EXPECT_EQ(tokens[0].int_value, 42);
  EXPECT_DOUBLE_EQ(tokens[1].float_value, 2.5);
  EXPECT_DOUBLE_EQ(tokens[2].float_value, 0.5);
  EXPECT_DOUBLE_EQ(tokens[3].float_value, 1.0);
  EXPECT_EQ(tokens[4].kind, TokenKind::kFloat);
  EXPECT_DOUBLE_EQ(tokens[4].float_value, 1000.0);
  EXPECT_DOUBLE_EQ(tokens[5].float_value, 0.025);
}

TEST(LexerTest, RecordsLocationsAndEnds) {
  auto tokens = LexOk("# header\n  kernel  k");
  EXPECT_EQ(tokens[0].loc.line, 2);
  EXPECT_EQ(tokens[0].loc.col, 3);
  EXPECT_EQ(tokens[0].end.col, 9);
  EXPECT_EQ(tokens[1].loc.col, 11);
  // The end token sits just after the last real token.
  EXPECT_EQ(tokens.back().loc.line, 2);
  EXPECT_EQ(tokens.back().loc.col, 12);
}

TEST(LexerTest, RejectsABadCharacter) {
  EXPECT_EQ(LexError("y[i] = x[i] $ 2;"),
            "t.tk:1:13: error: unexpected character '$'\n"
            "y[i] = x[i] $ 2;\n"
            "            ^");
  EXPECT_NE(LexError("a\x01").find("unexpected character 0x01"),
            std::string::npos);
}

TEST(LexerTest, RejectsMalformedNumbers) {
  EXPECT_NE(LexError("x * 2.5.1").find("1:5: error: malformed number '2.5.1'"),
            std::string::npos);
  EXPECT_NE(LexError("3x").find("malformed number '3x'"), std::string::npos);
  EXPECT_NE(LexError("1e").find("malformed number '1e'"), std::string::npos);
  EXPECT_NE(LexError("99999999999999999999").find("is out of range"),
            std::string::npos);
  EXPECT_NE(LexError("1e999").find("is out of range"), std::string::npos);
}

}  // namespace
}  // namespace tessel::kernel
