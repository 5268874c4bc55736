#include "libs/egraph/rules/rule_file.h"

#include <string>

#include "gtest/gtest.h"

namespace tessel::egraph::rules {
namespace {

std::vector<RuleSetDecl> ParseOk(const std::string& text) {
  auto sets = ParseRuleFile(MakeSource("t.rules", text));
  EXPECT_TRUE(sets.ok()) << sets.status();
  return sets.ok() ? *sets : std::vector<RuleSetDecl>{};
}

// The first line of the diagnostic: "t.rules:LINE:COL: error: MESSAGE".
std::string ParseError(const std::string& text) {
  auto sets = ParseRuleFile(MakeSource("t.rules", text));
  EXPECT_FALSE(sets.ok());
  if (sets.ok()) return "";
  std::string message(sets.status().message());
  return message.substr(0, message.find('\n'));
}

TEST(RuleFileTest, ReadsRulesConditionsLetsAndAppliers) {
  auto sets = ParseOk(R"(
; a comment
(ruleset demo
  (rule comm (+ ?a ?b) (+ ?b ?a))
  (rule div (/ ?a ?b) (* ?a (pow ?b -1)) (if (is-not-zero ?b)))
  (rule grow ?a (f ?a ?k) (if (small ?a)) (let ?k (pick ?a)) (if (ok ?k)))
  (rule custom (g ?x) (apply my-applier ?x (h ?x ?y))))
(ruleset other))");
  ASSERT_EQ(sets.size(), 2u);
  EXPECT_EQ(sets[0].name, "demo");
  EXPECT_EQ(sets[1].name, "other");
  EXPECT_TRUE(sets[1].rules.empty());
  const std::vector<RuleDecl>& rules = sets[0].rules;
  ASSERT_EQ(rules.size(), 4u);

  EXPECT_EQ(rules[0].name, "comm");
  EXPECT_EQ(rules[0].loc.line, 4);
  EXPECT_EQ(rules[0].loc.col, 9);
  EXPECT_TRUE(rules[0].lhs.is_form("+"));
  EXPECT_TRUE(rules[0].rhs.is_form("+"));
  EXPECT_FALSE(rules[0].apply.has_value());
  EXPECT_TRUE(rules[0].clauses.empty());

  ASSERT_EQ(rules[1].clauses.size(), 1u);
  EXPECT_EQ(rules[1].clauses[0].kind, Clause::Kind::kIf);
  EXPECT_EQ(rules[1].clauses[0].call.name, "is-not-zero");
  ASSERT_EQ(rules[1].clauses[0].call.args.size(), 1u);
  EXPECT_TRUE(rules[1].clauses[0].call.args[0].is_symbol("?b"));

  // Clauses keep their order; the let binds ?k for the later clause and
  // the right side.
  ASSERT_EQ(rules[2].clauses.size(), 3u);
  EXPECT_TRUE(rules[2].lhs.is_symbol("?a"));
  EXPECT_EQ(rules[2].clauses[0].kind, Clause::Kind::kIf);
  EXPECT_EQ(rules[2].clauses[1].kind, Clause::Kind::kLet);
  EXPECT_EQ(rules[2].clauses[1].var, "?k");
  EXPECT_EQ(rules[2].clauses[1].call.name, "pick");
  EXPECT_EQ(rules[2].clauses[2].call.name, "ok");

  // An applier's arguments may use variables the left side does not bind:
  // the applier decides what they mean.
  ASSERT_TRUE(rules[3].apply.has_value());
  EXPECT_EQ(rules[3].apply->name, "my-applier");
  EXPECT_EQ(rules[3].apply->args.size(), 2u);
  EXPECT_EQ(rules[3].apply->loc.col, 30);
}

TEST(RuleFileTest, BiruleIsTwoRules) {
  auto sets =
      ParseOk("(ruleset s (birule mul-one (* ?x 1) ?x (if (real ?x))))");
  ASSERT_EQ(sets.size(), 1u);
  ASSERT_EQ(sets[0].rules.size(), 2u);
  EXPECT_EQ(sets[0].rules[0].name, "mul-one");
  EXPECT_TRUE(sets[0].rules[0].lhs.is_form("*"));
  EXPECT_EQ(sets[0].rules[1].name, "mul-one-rev");
  EXPECT_TRUE(sets[0].rules[1].lhs.is_symbol("?x"));
  EXPECT_TRUE(sets[0].rules[1].rhs.is_form("*"));
  EXPECT_EQ(sets[0].rules[1].clauses.size(), 1u);
}

TEST(RuleFileTest, SameRuleNameInTwoSets) {
  // Names must be unique within a set and among the sets used together
  // (checked when they are compiled together), not across a file.
  auto sets =
      ParseOk("(ruleset a (rule r (f ?x) ?x)) (ruleset b (rule r (g ?x) ?x))");
  EXPECT_EQ(sets.size(), 2u);
}

TEST(RuleFileTest, IsVariable) {
  EXPECT_TRUE(IsVariable("?x"));
  EXPECT_TRUE(IsVariable("?long-name"));
  EXPECT_FALSE(IsVariable("?"));
  EXPECT_FALSE(IsVariable("x"));
  EXPECT_FALSE(IsVariable(""));
}

TEST(RuleFileTest, RightSideVariablesMustBeBound) {
  EXPECT_EQ(ParseError("(ruleset s\n  (rule intro ?a (fst (tuple ?a ?b))))"),
            "t.rules:2:33: error: rule 'intro': right side uses ?b, which "
            "is not bound by the left side (bind it with a let clause, or "
            "use an applier)");
  EXPECT_EQ(ParseError("(ruleset s (rule r (f ?a) (g ?a) (if (p ?z))))"),
            "t.rules:1:41: error: rule 'r': a condition uses ?z, which is "
            "not bound by the left side or an earlier let");
  // A condition may not use a let's variable before the let.
  EXPECT_EQ(
      ParseError("(ruleset s (rule r (f ?a) (g ?k) (if (p ?k)) (let ?k (q))))"),
      "t.rules:1:41: error: rule 'r': a condition uses ?k, which is "
      "not bound by the left side or an earlier let");
  EXPECT_EQ(
      ParseError("(ruleset s (rule r (f ?a) (g ?a) (let ?a (q ?a))))"),
      "t.rules:1:39: error: rule 'r': let binds ?a, which is already bound");
  EXPECT_EQ(ParseError("(ruleset s (rule r (f ?a) (g ?b) (let ?b (q ?c))))"),
            "t.rules:1:45: error: rule 'r': a let uses ?c, which is not "
            "bound by the left side or an earlier let");
}

TEST(RuleFileTest, BiruleChecksBothDirections) {
  EXPECT_EQ(ParseError("(ruleset s (birule r (f ?a ?b) (g ?a)))"),
            "t.rules:1:28: error: rule 'r-rev': right side uses ?b, which "
            "is not bound by the left side (bind it with a let clause, or "
            "use an applier)");
  EXPECT_EQ(ParseError("(ruleset s (birule r (f ?a) (g ?a) (let ?b (h))))"),
            "t.rules:1:36: error: a birule cannot have let clauses (they "
            "would bind variables in one direction only)");
  EXPECT_EQ(ParseError("(ruleset s (birule r (f ?a) (apply x ?a)))"),
            "t.rules:1:29: error: a birule cannot use an applier");
}

TEST(RuleFileTest, DuplicateNames) {
  EXPECT_EQ(ParseError("(ruleset s\n (rule r (f ?a) ?a)\n (rule r (g ?a) ?a))"),
            "t.rules:3:8: error: duplicate rule name 'r' in rule set 's' "
            "(first defined at t.rules:2:8)");
  // A birule's second rule is NAME-rev.
  EXPECT_EQ(ParseError("(ruleset s (birule r (f ?a) (g ?a)) "
                       "(rule r-rev (h ?a) ?a))"),
            "t.rules:1:43: error: duplicate rule name 'r-rev' in rule set "
            "'s' (first defined at t.rules:1:20)");
  EXPECT_EQ(ParseError("(ruleset s)\n(ruleset s)"),
            "t.rules:2:10: error: duplicate rule set name 's' (first "
            "defined at t.rules:1:10)");
}

TEST(RuleFileTest, MalformedForms) {
  EXPECT_EQ(ParseError("(rule r a b)"),
            "t.rules:1:1: error: expected (ruleset NAME RULE...)");
  EXPECT_EQ(ParseError("(ruleset)"),
            "t.rules:1:1: error: expected (ruleset NAME RULE...)");
  EXPECT_EQ(ParseError("(ruleset s (rewrite r a b))"),
            "t.rules:1:12: error: expected (rule NAME LHS RHS CLAUSE...) or "
            "(birule NAME LHS RHS CLAUSE...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r (f ?a)))"),
            "t.rules:1:12: error: expected (rule NAME LHS RHS CLAUSE...)");
  EXPECT_EQ(ParseError("(ruleset s (rule (r) a b))"),
            "t.rules:1:12: error: expected (rule NAME LHS RHS CLAUSE...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (when (p))))"),
            "t.rules:1:24: error: expected a clause: (if COND...) or (let "
            "?VAR (FN ARG...))");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (if)))"),
            "t.rules:1:24: error: (if COND...) needs at least one condition");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (if p)))"),
            "t.rules:1:28: error: expected a condition (NAME ARG...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (if ((p)))))"),
            "t.rules:1:28: error: expected a condition (NAME ARG...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (let k (f))))"),
            "t.rules:1:24: error: expected (let ?VAR (FN ARG...))");
  EXPECT_EQ(ParseError("(ruleset s (rule r a b (let ?k f)))"),
            "t.rules:1:32: error: expected a let function (NAME ARG...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r a (apply)))"),
            "t.rules:1:22: error: expected (apply APPLIER ARG...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r a (apply (f) ?a)))"),
            "t.rules:1:22: error: expected (apply APPLIER ARG...)");
  EXPECT_EQ(ParseError("(ruleset s (rule r (f ?) a))"),
            "t.rules:1:23: error: a variable needs a name after '?'");
  // Errors of the S-expression reader keep their location.
  EXPECT_EQ(ParseError("(ruleset s\n  (rule r a b)"),
            "t.rules:1:1: error: unterminated list: no ')' matches this '('");
}

TEST(RuleFileTest, ReadsFilesAndReportsMissingOnes) {
  auto missing = ReadRuleFile("/nonexistent/x.rules");
  EXPECT_FALSE(missing.ok());
}

// A file of no rule sets (empty, or only comments) is an error.
TEST(RuleFileTest, EmptyFile) {
  EXPECT_EQ(ParseError("; nothing\n"),
            "t.rules: error: the rule file has no rule sets: expected "
            "(ruleset NAME RULE...)");
}

}  // namespace
}  // namespace tessel::egraph::rules
