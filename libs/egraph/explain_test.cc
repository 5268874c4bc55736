#include "libs/egraph/explain.h"

#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

class ExplainTest : public testing::SymbolicTest {
 protected:
  ExplainTest() { g_.EnableExplanations(); }

  // The steps as "reason: term" lines, "<=" marking backward steps.
  std::vector<std::string> Explain(absl::string_view from,
                                   absl::string_view to) {
    absl::StatusOr<std::vector<ExplanationStep>> steps =
        g_.Explain(T(from), T(to));
    EXPECT_TRUE(steps.ok()) << steps.status();
    std::vector<std::string> lines;
    if (!steps.ok()) return lines;
    for (const ExplanationStep& s : *steps) {
      std::string line =
          s.reason.empty() ? "" : s.reason + (s.backward ? " <= " : " => ");
      lines.push_back(line + lang_.Print(s.term));
    }
    return lines;
  }
};

TEST_F(ExplainTest, GivenUnionsAndCongruence) {
  ClassId a = Add("a"), b = Add("b"), c = Add("c");
  Add("(f a)");
  Add("(f c)");
  g_.Union(a, b, Justification::Because(g_.InternReason("a=b")));
  g_.Union(c, b, Justification::Because(g_.InternReason("c=b")));
  g_.Rebuild();
  EXPECT_EQ(Explain("a", "c"),
            (std::vector<std::string>{"a", "a=b => b", "c=b <= c"}));
  // (f a) = (f c) by congruence: the children's chain, in context.
  EXPECT_EQ(
      Explain("(f a)", "(f c)"),
      (std::vector<std::string>{"(f a)", "a=b => (f b)", "c=b <= (f c)"}));
  EXPECT_EQ(Explain("(g a a)", "(g c a)"),
            (std::vector<std::string>{"(g a a)", "a=b => (g b a)",
                                      "c=b <= (g c a)"}));
  EXPECT_EQ(Explain("a", "a"), (std::vector<std::string>{"a"}));
}

TEST_F(ExplainTest, NotEqualIsAnError) {
  Add("a");
  Add("b");
  g_.Rebuild();
  EXPECT_FALSE(g_.Explain(T("a"), T("b")).ok());
}

TEST_F(ExplainTest, RuleChainFromInputToGoal) {
  std::vector<Rewrite> rules = {
      Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
      Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"),
  };
  Add("(+ 1 (+ 2 3))");
  SimpleScheduler simple;
  Runner runner(&g_, rules, {10, 10'000, 60}, &simple);
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  std::vector<std::string> steps = Explain("(+ 1 (+ 2 3))", "(+ 3 (+ 2 1))");
  ASSERT_GE(steps.size(), 2u);
  EXPECT_EQ(steps.front(), "(+ 1 (+ 2 3))");
  EXPECT_NE(steps.back().find("(+ 3 (+ 2 1))"), std::string::npos);
  for (size_t i = 1; i < steps.size(); ++i) {
    EXPECT_TRUE(steps[i].rfind("comm-add", 0) == 0 ||
                steps[i].rfind("assoc-add", 0) == 0)
        << steps[i];
  }
  // A single rewrite is one step.
  EXPECT_EQ(Explain("(+ 2 3)", "(+ 3 2)"),
            (std::vector<std::string>{"(+ 2 3)", "comm-add => (+ 3 2)"}));
}

TEST_F(ExplainTest, EveryStepIsOneRuleApplication) {
  // Check each step against the rules: some subterm of the term before is
  // an instance of one side and the term after has the other side's
  // instance in its place.
  std::vector<Rewrite> rules = {
      Rule("comm-mul", "(* ?a ?b)", "(* ?b ?a)"),
      Rule("distribute", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))"),
      Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
  };
  Add("(* (+ x y) z)");
  SimpleScheduler simple;
  Runner runner(&g_, rules, {6, 10'000, 60}, &simple);
  runner.Run();
  absl::StatusOr<std::vector<ExplanationStep>> steps =
      g_.Explain(T("(* (+ x y) z)"), T("(+ (* z y) (* x z))"));
  ASSERT_TRUE(steps.ok()) << steps.status();
  ASSERT_GE(steps->size(), 3u);
  for (size_t i = 1; i < steps->size(); ++i) {
    const ExplanationStep& step = (*steps)[i];
    const Term& before = (*steps)[i - 1].term;
    // Verify with a fresh e-graph: adding `before`, applying the named
    // rule once (both directions) must produce `after`.
    EGraph check(&ops_, &payloads_);
    check.AddTerm(before);
    check.Rebuild();
    const Rewrite* rule = nullptr;
    for (const Rewrite& r : rules) {
      if (r.name == step.reason) rule = &r;
    }
    ASSERT_NE(rule, nullptr) << step.reason;
    Matches m(rule->num_vars());
    if (step.backward) {
      // Apply the reversed rule.
      VarTable vars = rule->vars;
      auto* applier = dynamic_cast<const PatternApplier*>(rule->applier.get());
      ASSERT_NE(applier, nullptr);
      absl::StatusOr<Rewrite> reversed =
          Rewrite::FromPatterns("rev", applier->rhs(), rule->lhs, {}, vars);
      ASSERT_TRUE(reversed.ok());
      reversed->searcher.Search(check, 1000, &m);
      ApplyMatches(check, *reversed, 0, m);
    } else {
      rule->searcher.Search(check, 1000, &m);
      ApplyMatches(check, *rule, 0, m);
    }
    check.Rebuild();
    std::optional<ClassId> a = check.LookupTerm(before);
    std::optional<ClassId> b = check.LookupTerm(step.term);
    ASSERT_TRUE(b.has_value()) << "step " << i << " " << lang_.Print(step.term);
    EXPECT_EQ(*a, *b) << "step " << i;
  }
  EXPECT_EQ(lang_.Print(steps->back().term), "(+ (* z y) (* x z))");
}

TEST_F(ExplainTest, AnalysisUnionsNameTheAnalysis) {
  ClassId sum = Add("(+ 1 2)");
  ClassId three = Add("3");
  g_.Union(sum, three, Justification::Because(g_.InternReason("fold")));
  g_.Rebuild();
  EXPECT_EQ(Explain("(* (+ 1 2) x)", "(* 3 x)"),
            (std::vector<std::string>{"(* (+ 1 2) x)", "fold => (* 3 x)"}));
}

}  // namespace
}  // namespace tessel::egraph
