#include "libs/egraph/rewrite.h"

#include <memory>
#include <optional>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

using RewriteTest = testing::SymbolicTest;

// Whether a class has an integer constant (read from its e-nodes).
std::optional<int64_t> ConstantOf(const EGraph& g, OpId num, ClassId c) {
  for (NodeId n : g.Nodes(g.Find(c))) {
    if (g.Node(n).op == num) return g.payloads().IntValue(g.Node(n).payload);
  }
  return std::nullopt;
}

TEST_F(RewriteTest, RightSideVariablesMustBeBound) {
  VarTable vars;
  Pattern lhs = P("(f ?a)", &vars);
  Pattern rhs = P("(g ?a ?b)", &vars);
  absl::StatusOr<Rewrite> rule = Rewrite::FromPatterns(
      "bad", std::move(lhs), std::move(rhs), {}, std::move(vars));
  ASSERT_FALSE(rule.ok());
  EXPECT_NE(rule.status().message().find("?b"), std::string::npos);
}

TEST_F(RewriteTest, ConditionReadsTheEGraph) {
  // (/ ?a ?a) => 1 only if ?a is not the constant 0.
  OpId num = lang_.number_op();
  Condition not_zero = [num](EGraph& g, ClassId, const Subst& s) {
    return ConstantOf(g, num, s[0]) != 0;
  };
  std::vector<Rewrite> rules = {Rule("cancel", "(/ ?a ?a)", "1", {not_zero})};
  ClassId x = Add("(/ x x)");
  ClassId zero = Add("(/ 0 0)");
  Runner runner(&g_, rules, {5, 1000, 60});
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  EXPECT_TRUE(Represents(x, "1"));
  EXPECT_FALSE(Represents(zero, "1"));
}

TEST_F(RewriteTest, ConditionThatTurnsTrueLaterIsRetried) {
  // "mark" fires on (f ?a) once ?a has the constant 1, which another rule
  // only establishes in the second iteration: the match found (and
  // rejected) in iteration 0 must be tried again.
  OpId num = lang_.number_op();
  Condition is_one = [num](EGraph& g, ClassId, const Subst& s) {
    return ConstantOf(g, num, s[0]) == 1;
  };
  std::vector<Rewrite> rules = {
      Rule("mark", "(f ?a)", "(marked ?a)", {is_one}),
      Rule("step1", "x", "y"),
      Rule("step2", "y", "1"),
  };
  ClassId f = Add("(f x)");
  Runner runner(&g_, rules, {10, 1000, 60});
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  EXPECT_TRUE(Represents(f, "(marked 1)"));
}

// A custom applier whose right side has a variable the left side does not
// bind: (pair ?a) => (both ?a ?b) for every class ?b holding a symbol.
class PairWithEverySymbol : public Applier {
 public:
  PairWithEverySymbol(Pattern rhs, VarId b, uint32_t num_vars, OpId sym)
      : rhs_(std::move(rhs)), b_(b), num_vars_(num_vars), sym_(sym) {}
  bool Apply(EGraph& g, const ApplyContext& m) const override {
    std::vector<ClassId> candidates;
    for (NodeId n : g.NodesWithOp(sym_)) candidates.push_back(g.Find(n));
    bool changed = false;
    std::vector<ClassId> subst(m.subst.classes().begin(),
                               m.subst.classes().end());
    subst.resize(num_vars_, kNoId);
    for (ClassId c : candidates) {
      subst[b_] = c;
      ClassId instance = Instantiate(g, rhs_, Subst(subst));
      changed |= g.Union(m.root, instance, m.why);
    }
    return changed;
  }

 private:
  Pattern rhs_;
  VarId b_;
  uint32_t num_vars_;
  OpId sym_;
};

TEST_F(RewriteTest, CustomApplierBindsExtraVariables) {
  VarTable vars;
  Pattern lhs = P("(pair ?a)", &vars);
  Pattern rhs = P("(both ?a ?b)", &vars);
  VarId b = *vars.Find("?b");
  uint32_t n = vars.size();
  auto applier = std::make_shared<PairWithEverySymbol>(std::move(rhs), b, n,
                                                       lang_.symbol_op());
  std::vector<Rewrite> rules;
  rules.emplace_back("pair", std::move(lhs), applier, std::vector<Condition>{},
                     std::move(vars));
  ClassId p = Add("(pair 1)");
  Add("(list u v)");
  g_.Rebuild();
  SimpleScheduler simple;
  Runner runner(&g_, rules, {5, 1000, 60}, &simple);
  runner.Run();
  EXPECT_TRUE(Represents(p, "(both 1 u)"));
  EXPECT_TRUE(Represents(p, "(both 1 v)"));
  EXPECT_EQ(runner.stop_reason(), StopReason::kSaturated);
}

TEST_F(RewriteTest, ApplyMatchesCountsChanges) {
  Rewrite comm = Rule("comm", "(+ ?a ?b)", "(+ ?b ?a)");
  Add("(+ x y)");
  Add("(+ z z)");
  g_.Rebuild();
  Matches m(comm.num_vars());
  EXPECT_EQ(comm.searcher.Search(g_, 100, &m), 2u);
  // (+ z z) is its own commuted form: only one application changes anything.
  EXPECT_EQ(ApplyMatches(g_, comm, g_.InternReason("comm"), m), 1u);
  g_.Rebuild();
  ExpectValid();
}

}  // namespace
}  // namespace tessel::egraph
