#include "libs/schedule/pattern.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "libs/ir/syntax.h"
#include "libs/primitives/testing.h"
#include "libs/schedule/match.h"
#include "libs/schedule/testing.h"
#include "libs/sexpr/printer.h"

namespace tessel::schedule {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

Pattern ReadOk(const std::string& text) {
  absl::StatusOr<Pattern> pattern = ReadPattern(text);
  EXPECT_TRUE(pattern.ok()) << text << ": " << pattern.status();
  return pattern.ok() ? *std::move(pattern) : Pattern();
}

TEST(PatternTest, ReadsStatementPatterns) {
  using Kind = StmtPattern::Kind;
  EXPECT_EQ(ReadOk("for i in _").stmts[0].kind, Kind::kFor);
  EXPECT_EQ(ReadOk("for i in _: _").stmts[0].body[0].kind, Kind::kHole);
  EXPECT_EQ(ReadOk("if n > 0: _").stmts[0].kind, Kind::kIf);
  EXPECT_EQ(ReadOk("x = _").stmts[0].kind, Kind::kAssign);
  Pattern reduce = ReadOk("A[_, i] += _");
  EXPECT_EQ(reduce.stmts[0].kind, Kind::kReduce);
  EXPECT_EQ(reduce.stmts[0].indices.size(), 2u);
  EXPECT_EQ(ReadOk("x : _").stmts[0].kind, Kind::kAlloc);
  EXPECT_EQ(ReadOk("x : f32[16] @ DRAM").stmts[0].kind, Kind::kAlloc);
  EXPECT_EQ(ReadOk("foo(_)").stmts[0].kind, Kind::kCall);
  EXPECT_EQ(ReadOk("cfg.stride = _").stmts[0].kind, Kind::kWriteConfig);
  Pattern block = ReadOk("x = _ ; _ ; for i in _");
  ASSERT_EQ(block.stmts.size(), 3u);
  EXPECT_EQ(block.stmts[1].kind, Kind::kHole);
}

TEST(PatternTest, ReadsExpressionPatternsAndMatchNumbers) {
  Pattern mod = ReadOk("n % 4");
  ASSERT_TRUE(mod.expr.has_value());
  EXPECT_EQ(mod.expr->op, ir::Op::kFloorMod);
  EXPECT_TRUE(mod.stmts.empty());
  Pattern numbered = ReadOk("C[_] += _ #1");
  EXPECT_EQ(numbered.match_no, 1);
  EXPECT_EQ(numbered.text, "C[_] += _");
  EXPECT_EQ(ReadOk("i").expr->kind, PyExpr::Kind::kName);
  EXPECT_EQ(ReadOk("-3").expr->int_value, -3);
  EXPECT_EQ(ReadOk("not a and b or c").expr->op, ir::Op::kOr);
}

TEST(PatternTest, ReportsMalformedPatterns) {
  EXPECT_THAT(ReadPattern("").status().message(), HasSubstr("empty"));
  EXPECT_THAT(ReadPattern("_").status().message(),
              HasSubstr("would match anything"));
  EXPECT_THAT(ReadPattern("_ ; _").status().message(),
              HasSubstr("would match anything"));
  EXPECT_THAT(ReadPattern("for i in _ #x").status().message(),
              HasSubstr("'#' must be followed by a match number"));
  EXPECT_THAT(
      ReadPattern("for in _").status().message(),
      HasSubstr("expected the loop's variable after 'for' at column 5"));
  EXPECT_THAT(ReadPattern("A[i").status().message(),
              HasSubstr("expected ',' or ']'"));
  EXPECT_THAT(ReadPattern("x $ y").status().message(),
              HasSubstr("unexpected character '$' at column 3"));
  EXPECT_THAT(ReadPattern("i j").status().message(),
              HasSubstr("unexpected text at column 3"));
  EXPECT_TRUE(
      ReadPattern(std::string(99, '(') + "n" + std::string(99, ')')).ok());
  EXPECT_THAT(ReadPattern(std::string(100000, '(')).status().message(),
              HasSubstr("nested more than 100 deep"));
  EXPECT_THAT(ReadPattern(std::string(100000, '-') + "n").status().message(),
              HasSubstr("nested more than 100 deep"));
  std::string indices;
  for (int i = 0; i < 50000; ++i) indices += "A[";
  EXPECT_THAT(ReadPattern(indices).status().message(),
              HasSubstr("nested more than 100 deep"));
  EXPECT_THAT(ReadPattern("x : ").status().message(),
              HasSubstr("expected a type"));
}

class MatchTest : public ::testing::Test {
 protected:
  MatchTest()
      : module_(primitives::testing::ReadVerified(testing::kProc)),
        proc_(primitives::testing::ProcNamed(module_, "@p")) {}

  // Each match's first node, printed flat.
  std::vector<std::string> Find(const std::string& text) {
    std::vector<std::string> found;
    for (const Match& match : FindMatches(module_, proc_, ReadOk(text))) {
      std::string printed =
          PrintFlat(ir::WriteNode(*match.node.node())).substr(0, 20);
      if (match.block.is_valid() && match.block.size() > 1) {
        absl::StrAppend(&printed, " +", match.block.size() - 1);
      }
      found.push_back(printed);
    }
    return found;
  }

  ir::Module module_;
  ir::Node& proc_;
};

TEST_F(MatchTest, FindsStatementsInProgramOrder) {
  EXPECT_THAT(Find("for i in _"), ElementsAre("(for i 0 n (assign ("));
  EXPECT_THAT(Find("for _ in _"),
              ElementsAre("(for i 0 n (assign (", "(for k 0 8 (reduce (",
                          "(for j 0 n (alloc t "));
  EXPECT_THAT(Find("C[_] += _"),
              ElementsAre("(reduce (C i) (* (A ", "(reduce (C j) t)"));
  EXPECT_THAT(Find("C[j] += t"), ElementsAre("(reduce (C j) t)"));
  EXPECT_THAT(Find("C[i] += _"), ElementsAre("(reduce (C i) (* (A "));
  EXPECT_THAT(Find("C = _"), ElementsAre());
  EXPECT_THAT(Find("t = _"), ElementsAre("(assign t 1.0)"));
  EXPECT_THAT(Find("t : _"), ElementsAre("(alloc t f32)"));
  EXPECT_THAT(Find("if _: _"), ElementsAre("(if (== (% j 4) 0) ("));
  EXPECT_THAT(Find("for k in 8"), ElementsAre("(for k 0 8 (reduce ("));
  EXPECT_THAT(Find("for k in n"), ElementsAre());
  EXPECT_THAT(Find("for i in _: C[_] = _"),
              ElementsAre("(for i 0 n (assign ("));
  EXPECT_THAT(Find("for i in _: for k in _"), ElementsAre());
  EXPECT_THAT(Find("foo(_)"), ElementsAre());
}

TEST_F(MatchTest, FindsBlocks) {
  EXPECT_THAT(Find("C[i] = _ ; for k in _"),
              ElementsAre("(assign (C i) 0.0) +1"));
  EXPECT_THAT(Find("t : _ ; _ ; if _: _"), ElementsAre("(alloc t f32) +2"));
  EXPECT_THAT(Find("t : _ ; _"), ElementsAre("(alloc t f32) +2"));
  EXPECT_THAT(Find("t = _ ; t : _"), ElementsAre());
}

TEST_F(MatchTest, FindsExpressionsInTheBodyOnly) {
  EXPECT_THAT(Find("A[_] * _"), ElementsAre("(* (A i k) 2.0)"));
  EXPECT_THAT(Find("A[i, k]"), ElementsAre("(A i k)"));
  EXPECT_THAT(Find("A[i]"), ElementsAre());
  EXPECT_THAT(Find("j % 4"), ElementsAre("(% j 4)"));
  EXPECT_THAT(Find("_ % _"), ElementsAre("(% j 4)"));
  // The assertion's (% n 2) is not the body's.
  EXPECT_THAT(Find("n % 2"), ElementsAre());
  EXPECT_THAT(Find("n"), ElementsAre("n", "n"));
  EXPECT_THAT(Find("2.0"), ElementsAre("2.0"));
}

}  // namespace
}  // namespace tessel::schedule
