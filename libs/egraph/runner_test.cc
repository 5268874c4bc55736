#include "libs/egraph/runner.h"

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

using RunnerTest = testing::SymbolicTest;

// egg's math_associate_adds: comm and assoc of + saturate a 7-term sum at
// egg's sizes.
TEST_F(RunnerTest, AssociateAddsReachesEggsFixpoint) {
  std::vector<Rewrite> rules;
  rules.push_back(Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"));
  rules.push_back(Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"));
  ClassId root = Add("(+ 1 (+ 2 (+ 3 (+ 4 (+ 5 (+ 6 7))))))");
  SimpleScheduler simple;
  Runner runner(&g_, rules, {100, 1'000'000, 60}, &simple);
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  EXPECT_EQ(runner.iterations().size(), 8u);
  EXPECT_EQ(g_.NumClasses(), 127u);
  EXPECT_EQ(g_.NumNodes(), 1939u);
  EXPECT_TRUE(Represents(root, "(+ 7 (+ 6 (+ 5 (+ 4 (+ 3 (+ 2 1))))))"));
  ExpectValid();
  Runner::Report totals = runner.Totals();
  EXPECT_EQ(totals.iterations, 8u);
  EXPECT_EQ(totals.classes, 127u);
}

// (g x) = (g (h x)) = (g (h (h x))) = ...: a new e-node every iteration.
constexpr absl::string_view kGrowLhs = "(g ?a)";
constexpr absl::string_view kGrowRhs = "(g (h ?a))";

TEST_F(RunnerTest, IterationLimit) {
  std::vector<Rewrite> rules = {Rule("grow", kGrowLhs, kGrowRhs)};
  Add("(g x)");
  Runner runner(&g_, rules, {3, 1'000'000, 60});
  EXPECT_EQ(runner.Run(), StopReason::kIterationLimit);
  EXPECT_EQ(runner.iterations().size(), 3u);
}

TEST_F(RunnerTest, NodeLimit) {
  std::vector<Rewrite> rules = {Rule("grow", kGrowLhs, kGrowRhs)};
  Add("(g x)");
  SimpleScheduler simple;
  Runner runner(&g_, rules, {1000, 50, 60}, &simple);
  EXPECT_EQ(runner.Run(), StopReason::kNodeLimit);
  EXPECT_GT(g_.HashconsSize(), 50u);
  EXPECT_LT(runner.iterations().size(), 1000u);
}

// Associativity and commutativity of a 10-term sum: one rule's matches in
// one iteration add tens of thousands of e-nodes.
class AssociativityTest : public RunnerTest {
 protected:
  // Runs the rules on the sum with a node limit of `limit` checked at
  // `check`; returns the hash-cons entries when the run stopped.
  size_t StopSize(size_t limit, NodeCheck check) {
    std::vector<Rewrite> rules = {
        Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
        Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)")};
    EGraph g(&ops_, &payloads_);
    g.AddTerm(T("(+ 1 (+ 2 (+ 3 (+ 4 (+ 5 (+ 6 (+ 7 (+ 8 (+ 9 10)))))))))"));
    SimpleScheduler simple;
    Runner runner(&g, rules, {100, limit, 60, check}, &simple);
    EXPECT_EQ(runner.Run(), StopReason::kNodeLimit);
    EXPECT_TRUE(g.Verify().ok());
    return g.HashconsSize();
  }
};

TEST_F(AssociativityTest, NodeLimitStopsWithinOneMatch) {
  // assoc-add's right side adds at most two e-nodes (its rebuild only
  // merges e-nodes).
  for (size_t limit : {1'000u, 10'000u, 20'000u}) {
    EXPECT_LE(StopSize(limit, NodeCheck::kEveryMatch), limit + 2) << limit;
  }
}

TEST_F(AssociativityTest, EggChecksTheNodeLimitBetweenRules) {
  // egg's checks let the last rule run through all its matches: 15,502
  // hash-cons entries.
  EXPECT_GT(StopSize(10'000, NodeCheck::kEveryRule), 12'000u);
}

TEST_F(RunnerTest, TimeLimitZeroStopsAtOnce) {
  std::vector<Rewrite> rules = {Rule("wrap", "?a", "(f ?a)")};
  Add("x");
  Runner runner(&g_, rules, {1000, 1'000'000, 0});
  EXPECT_EQ(runner.Run(), StopReason::kTimeLimit);
  // Stopped before the first rule: one (empty) iteration, nothing added.
  EXPECT_EQ(runner.iterations().size(), 1u);
  EXPECT_EQ(g_.NumNodes(), 1u);
}

TEST_F(RunnerTest, HookStopsTheRun) {
  std::vector<Rewrite> rules = {Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)")};
  ClassId root = Add("(+ x y)");
  Runner runner(&g_, rules, {10, 1000, 60});
  VarTable vars;
  CompiledPattern goal(P("(+ y x)", &vars));
  int calls = 0;
  runner.AddHook([&](Runner& r) -> std::optional<std::string> {
    ++calls;
    Matches m(goal.num_vars());
    if (goal.SearchClass(r.egraph(), root, 1, &m) > 0) return "proved";
    return std::nullopt;
  });
  EXPECT_EQ(runner.Run(), StopReason::kOther);
  EXPECT_EQ(runner.stop_message(), "proved");
  // Iteration 0 applies comm-add; the hook of iteration 1 sees the goal.
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(runner.iterations().size(), 2u);
}

TEST_F(RunnerTest, PerIterationReport) {
  std::vector<Rewrite> rules = {Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
                                Rule("comm-mul", "(* ?a ?b)", "(* ?b ?a)")};
  Add("(+ x (* y z))");
  SimpleScheduler simple;
  Runner runner(&g_, rules, {10, 1000, 60}, &simple);
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  ASSERT_EQ(runner.iterations().size(), 2u);
  const Iteration& first = runner.iterations()[0];
  ASSERT_EQ(first.applied.size(), 2u);
  EXPECT_EQ(first.applied[0], (std::pair<size_t, size_t>{0, 1}));
  EXPECT_EQ(first.applied[1], (std::pair<size_t, size_t>{1, 1}));
  EXPECT_EQ(first.matches, 2u);
  EXPECT_EQ(first.hashcons_before, 5u);
  EXPECT_EQ(first.nodes, 7u);
  EXPECT_EQ(first.classes, 5u);
  EXPECT_GE(first.search_seconds, 0);
  EXPECT_TRUE(runner.iterations()[1].applied.empty());
  EXPECT_EQ(runner.iterations()[1].matches, 4u);
}

// egg's backoff: a rule with more matches than its limit is banned for
// ban_length << times_banned iterations and its limit doubles.
TEST_F(RunnerTest, BackoffBansAndDoubles) {
  // "grow" changes the e-graph every iteration, so bans are never
  // fast-forwarded.
  std::vector<Rewrite> rules = {Rule("wrap", "(f ?a)", "(k ?a)"),
                                Rule("grow", kGrowLhs, kGrowRhs)};
  Add("(g x)");
  for (int i = 0; i < 5; ++i) Add("(f " + std::to_string(i) + ")");
  BackoffScheduler backoff(/*match_limit=*/2, /*ban_length=*/3);
  backoff.DoNotBan("grow");
  Runner runner(&g_, rules, {10, 1000, 60}, &backoff);
  EXPECT_EQ(runner.Run(), StopReason::kIterationLimit);
  const BackoffScheduler::RuleStats* s = backoff.Stats("wrap");
  ASSERT_NE(s, nullptr);
  // Iteration 0: 5 matches > 2: banned for 3 iterations. Iteration 3:
  // 5 > 2 << 1: banned for 3 << 1. Iteration 9: 5 <= 2 << 2: applied.
  EXPECT_EQ(s->times_banned, 2u);
  EXPECT_EQ(s->banned_until, 9u);
  EXPECT_EQ(s->times_applied, 1u);
  for (size_t i = 0; i < 10; ++i) {
    bool wrap_applied = !runner.iterations()[i].applied.empty() &&
                        runner.iterations()[i].applied[0].first == 0;
    EXPECT_EQ(wrap_applied, i == 9) << i;
  }
  EXPECT_EQ(backoff.Stats("grow")->times_banned, 0u);
}

TEST_F(RunnerTest, BackoffFastForwardsInsteadOfSaturating) {
  // Nothing else changes while the rule is banned: egg fast-forwards the
  // ban and runs it again with a doubled limit (4 >= 5? no: banned again,
  // then 8 >= 5 applies).
  std::vector<Rewrite> rules = {Rule("wrap", "(f ?a)", "(g ?a)")};
  ClassId f0 = Add("(f 0)");
  for (int i = 1; i < 5; ++i) Add("(f " + std::to_string(i) + ")");
  BackoffScheduler backoff(2, 3);
  Runner runner(&g_, rules, {100, 1000, 60}, &backoff);
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  EXPECT_TRUE(Represents(f0, "(g 0)"));
  EXPECT_EQ(backoff.Stats("wrap")->times_banned, 2u);
  // Bans 0-2 (fast-forwarded after iteration 0), 1-6 (fast-forwarded after
  // iteration 1), then applied in iteration 2 and saturated in 3.
  EXPECT_EQ(runner.iterations().size(), 4u);
}

TEST_F(RunnerTest, DoNotBan) {
  std::vector<Rewrite> rules = {Rule("wrap", "(f ?a)", "(g ?a)")};
  for (int i = 0; i < 5; ++i) Add("(f " + std::to_string(i) + ")");
  BackoffScheduler backoff(2, 3);
  backoff.DoNotBan("wrap");
  Runner runner(&g_, rules, {100, 1000, 60}, &backoff);
  EXPECT_EQ(runner.Run(), StopReason::kSaturated);
  EXPECT_EQ(runner.iterations().size(), 2u);
  EXPECT_EQ(backoff.Stats("wrap")->times_banned, 0u);
}

// Applying only new matches of rules that apply once gives the e-graph
// that applying every match gives: same sizes after every iteration.
class ApplyEveryTime : public Applier {
 public:
  explicit ApplyEveryTime(std::shared_ptr<const Applier> inner)
      : inner_(std::move(inner)) {}
  bool Apply(EGraph& g, const ApplyContext& match) const override {
    return inner_->Apply(g, match);
  }

 private:
  std::shared_ptr<const Applier> inner_;
};

class ApplyOnceTest : public RunnerTest {
 protected:
  // Runs `rules` on `term` as they are and with every applier applying
  // every match every time, under the simple scheduler if `simple`, else
  // the backoff one, and expects the same sizes after every iteration.
  void ExpectSameAsApplyingEveryMatch(const char* term,
                                      const std::vector<Rewrite>& rules,
                                      RunnerLimits limits, bool simple) {
    std::vector<std::vector<size_t>> sizes;
    for (bool every_time : {false, true}) {
      std::vector<Rewrite> run = rules;
      if (every_time) {
        for (Rewrite& r : run) {
          r.applier = std::make_shared<ApplyEveryTime>(r.applier);
        }
      }
      EGraph g(&ops_, &payloads_);
      g.AddTerm(T(term));
      SimpleScheduler simple_scheduler;
      Runner runner(&g, run, limits, simple ? &simple_scheduler : nullptr);
      runner.Run();
      std::vector<size_t> s;
      for (const Iteration& it : runner.iterations()) {
        s.push_back(it.nodes);
        s.push_back(it.classes);
        s.push_back(it.hashcons);
      }
      sizes.push_back(s);
      EXPECT_TRUE(g.Verify().ok());
    }
    EXPECT_EQ(sizes[0], sizes[1]);
  }
};

TEST_F(ApplyOnceTest, ApplyingNewMatchesOnlyChangesNothing) {
  ExpectSameAsApplyingEveryMatch(
      "(* (+ x 3) (+ y (* x 2)))",
      {
          Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
          Rule("comm-mul", "(* ?a ?b)", "(* ?b ?a)"),
          Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"),
          Rule("distribute", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))"),
          Rule("factor", "(+ (* ?a ?b) (* ?a ?c))", "(* ?a (+ ?b ?c))"),
          Rule("add-zero", "?a", "(+ ?a 0)"),
      },
      {8, 200'000, 60}, /*simple=*/false);
}

// The same for rules with conditions that change their minds as classes
// merge: only the matches whose conditions failed last time are tried
// again, and merges that move the root e-node of an applied match do not
// make it new; the e-graph is still the one that applying every match
// every time gives.
TEST_F(ApplyOnceTest, RetryingOnlyFailedMatchesChangesNothing) {
  // ?a's class has a + e-node (turns true for x once add-zero ran).
  Condition has_plus = [](EGraph& g, ClassId, const Subst& s) {
    for (NodeId n : g.Nodes(g.Find(s[0]))) {
      if (g.ops().Name(g.Node(n).op) == "+") return true;
    }
    return false;
  };
  // The matched class is small (turns false as it grows).
  Condition small_root = [](EGraph& g, ClassId root, const Subst&) {
    return g.Nodes(g.Find(root)).size() < 4;
  };
  ExpectSameAsApplyingEveryMatch(
      "(* (+ x 3) (+ y (* x (+ 2 z))))",
      {
          Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"),
          Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"),
          Rule("comm-mul-if", "(* ?a ?b)", "(* ?b ?a)", {has_plus}),
          Rule("distribute-if", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))",
               {small_root}),
          Rule("factor", "(+ (* ?a ?b) (* ?a ?c))", "(* ?a (+ ?b ?c))"),
          Rule("add-zero", "?a", "(+ ?a 0)"),
      },
      {5, 200'000, 60}, /*simple=*/true);
}

}  // namespace
}  // namespace tessel::egraph
