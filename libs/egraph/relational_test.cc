#include "libs/egraph/relational.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/matcher.h"
#include "libs/egraph/runner.h"
#include "libs/egraph/scheduler.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

using Match = std::vector<ClassId>;  // root, then the substitution

// The matches in `out` (from index `from`), sorted; duplicates kept so that
// comparing two lists catches them.
std::vector<Match> Sorted(const Matches& out) {
  std::vector<Match> result;
  for (size_t i = 0; i < out.size(); ++i) {
    Match m = {out.root(i)};
    for (ClassId c : out.subst(i).classes()) m.push_back(c);
    result.push_back(std::move(m));
  }
  std::sort(result.begin(), result.end());
  return result;
}

std::vector<ClassId> Roots(const Matches& out) {
  std::vector<ClassId> roots;
  for (size_t i = 0; i < out.size(); ++i) roots.push_back(out.root(i));
  return roots;
}

class RelationalTest : public testing::SymbolicTest {
 protected:
  // Searches `text` with both matchers and expects the same count and the
  // same matches; returns the count.
  size_t ExpectSame(const std::string& text, uint32_t old_before = 0,
                    const RetrySet* retry = nullptr,
                    size_t limit = ~size_t{0}) {
    VarTable vars;
    Pattern p = P(text, &vars);
    CompiledPattern compiled(p);
    RelationalPattern relational(p);
    EXPECT_EQ(relational.num_vars(), compiled.num_vars()) << text;
    Matches want(vars.size()), got(vars.size());
    size_t want_found = compiled.Search(g_, limit, &want, old_before, retry);
    size_t got_found = relational.Search(g_, limit, &got, old_before, retry);
    EXPECT_EQ(got_found, want_found) << text;
    std::vector<Match> got_sorted = Sorted(got);
    if (limit == ~size_t{0}) {
      EXPECT_EQ(got_sorted, Sorted(want)) << text;
      // Both go by root e-node in the same order.
      EXPECT_EQ(Roots(got), Roots(want)) << text;
    } else {
      // The first `limit` matches of another order: a subset of the
      // unlimited matches.
      Matches all(vars.size());
      relational.Search(g_, ~size_t{0}, &all, old_before, retry);
      std::vector<Match> all_sorted = Sorted(all);
      EXPECT_TRUE(std::includes(all_sorted.begin(), all_sorted.end(),
                                got_sorted.begin(), got_sorted.end()))
          << text;
    }
    EXPECT_TRUE(std::adjacent_find(got_sorted.begin(), got_sorted.end()) ==
                got_sorted.end())
        << "duplicate match for " << text;
    return got_found;
  }

  // A random pattern over f (binary), g (unary), leaves a, b, 1 and
  // variables ?x, ?y, ?z (often repeated).
  std::string RandomPattern(int depth) {
    uint32_t k = rng_() % 10;
    if (depth == 0 || k < 3) {
      const char* vars[] = {"?x", "?y", "?z"};
      return vars[rng_() % 3];
    }
    if (k < 4) {
      const char* leaves[] = {"a", "b", "1"};
      return leaves[rng_() % 3];
    }
    if (k < 6) return "(g " + RandomPattern(depth - 1) + ")";
    return "(f " + RandomPattern(depth - 1) + " " + RandomPattern(depth - 1) +
           ")";
  }

  // Adds `count` random e-nodes over the classes in ids_, then `unions`
  // random unions, then rebuilds.
  void Grow(int count, int unions) {
    OpId f = ops_.Intern("f"), g = ops_.Intern("g");
    for (int i = 0; i < count; ++i) {
      ClassId x = ids_[rng_() % ids_.size()];
      ClassId y = ids_[rng_() % ids_.size()];
      ids_.push_back(rng_() % 3 ? g_.Add(f, 0, {x, y}) : g_.Add(g, 0, {x}));
    }
    for (int i = 0; i < unions; ++i) {
      g_.Union(ids_[rng_() % ids_.size()], ids_[rng_() % ids_.size()]);
    }
    g_.Rebuild();
  }

  void SeedLeaves() { ids_ = {Add("a"), Add("b"), Add("c"), Add("1")}; }

  // Patterns every round checks besides random ones: non-linear joins (the
  // second (f ?a ?c) gets a sorted copy), shared ground parts, blocks of the
  // compiled matcher, a bare variable, a ground pattern.
  static constexpr const char* kFixed[] = {
      "?x",
      "a",
      "(g a)",
      "(f ?a ?a)",
      "(f (g ?a) ?a)",
      "(f ?a (g ?a))",
      "(f (f ?a ?b) (f ?a ?c))",
      "(f (f ?a ?b) (f ?b ?a))",
      "(f (g ?a) (g ?a))",
      "(f (f (g a) ?b) ?b)",
      "(f ?b (f ?a (g ?b)))",
      "(g (g (g ?a)))",
      "(f (g 1) (f ?x a))",
      "(f (f ?a ?b) (f ?c ?a))",
  };

  std::mt19937 rng_{7};
  std::vector<ClassId> ids_;
};

TEST_F(RelationalTest, SmallExamples) {
  ClassId a = Add("(+ x (* y 2))");
  Add("(+ y y)");
  g_.Rebuild();
  EXPECT_EQ(ExpectSame("(+ ?a (* ?b 2))"), 1u);
  EXPECT_EQ(ExpectSame("(+ ?a ?b)"), 2u);
  EXPECT_EQ(ExpectSame("(+ ?a ?a)"), 1u);
  EXPECT_EQ(ExpectSame("(+ ?a (* ?b 3))"), 0u);  // 3 is not in the graph
  EXPECT_EQ(ExpectSame("(- ?a ?b)"), 0u);
  EXPECT_EQ(ExpectSame("(+ x (* y 2))"), 1u);
  EXPECT_EQ(ExpectSame("?x"), g_.NumClasses());
  VarTable vars;
  RelationalPattern p(P("(+ ?a (* ?b 2))", &vars));
  Matches out(vars.size());
  ASSERT_EQ(p.Search(g_, 10, &out), 1u);
  EXPECT_EQ(out.root(0), a);
  EXPECT_EQ(out.subst(0)[0], Add("x"));
  EXPECT_EQ(out.subst(0)[1], Add("y"));
}

TEST_F(RelationalTest, CyclicEGraph) {
  ClassId x = Add("x");
  g_.Union(x, Add("(f x)"));
  g_.Rebuild();
  EXPECT_EQ(ExpectSame("(f (f (f ?y)))"), 1u);
  EXPECT_EQ(ExpectSame("(f ?y)"), 1u);
  EXPECT_EQ(ExpectSame("(f x)"), 1u);
}

TEST_F(RelationalTest, AgreesWithCompiledOnRandomEGraphs) {
  for (int seed = 0; seed < 4; ++seed) {
    rng_.seed(seed);
    SeedLeaves();
    for (int round = 0; round < 5; ++round) {
      Grow(30, 4);
      for (const char* text : kFixed) ExpectSame(text);
      for (int i = 0; i < 40; ++i) ExpectSame(RandomPattern(3));
      ExpectSame(RandomPattern(3), 0, nullptr, 5);  // with a limit
    }
  }
}

// Matches older than an epoch are counted, not returned, the same as the
// compiled matcher's, with RootStamp or (with a retry set) Stamp at the
// root.
TEST_F(RelationalTest, OldMatchesAgreeWithCompiled) {
  for (int seed = 0; seed < 4; ++seed) {
    rng_.seed(100 + seed);
    SeedLeaves();
    Grow(40, 3);
    for (int round = 0; round < 4; ++round) {
      g_.AdvanceEpoch();
      const uint32_t epoch = g_.epoch();
      Grow(15, 3);
      std::vector<std::string> patterns(std::begin(kFixed), std::end(kFixed));
      for (int i = 0; i < 30; ++i) patterns.push_back(RandomPattern(3));
      for (const std::string& text : patterns) {
        ExpectSame(text, epoch);
        // A retry set holding every other match found unrestricted: the old
        // ones among them are returned too.
        VarTable vars;
        Pattern p = P(text, &vars);
        CompiledPattern compiled(p);
        Matches all(vars.size());
        compiled.Search(g_, ~size_t{0}, &all);
        RetrySet retry;
        for (size_t i = 0; i < all.size(); i += 2) {
          retry.insert(MatchHash(
              all.root(i), all.subst(i).classes().first(compiled.num_vars())));
        }
        ExpectSame(text, epoch, &retry);
        RetrySet empty;
        ExpectSame(text, epoch, &empty);
      }
    }
  }
}

// A whole run searched by either matcher does the same work: the backoff
// scheduler (small limits, so rules get banned) sees the same counts and the
// runner applies the same matches (in another order within a root e-node).
TEST_F(RelationalTest, RunnerDoesTheSameWork) {
  auto run = [&](EGraph* g, bool relational) {
    std::vector<Rewrite> rules;
    rules.push_back(Rule("comm-add", "(+ ?a ?b)", "(+ ?b ?a)"));
    rules.push_back(Rule("comm-mul", "(* ?a ?b)", "(* ?b ?a)"));
    rules.push_back(Rule("assoc-add", "(+ ?a (+ ?b ?c))", "(+ (+ ?a ?b) ?c)"));
    rules.push_back(
        Rule("distribute", "(* ?a (+ ?b ?c))", "(+ (* ?a ?b) (* ?a ?c))"));
    rules.push_back(
        Rule("factor", "(+ (* ?a ?b) (* ?a ?c))", "(* ?a (+ ?b ?c))"));
    rules.push_back(Rule("one-mul", "(* ?a 1)", "?a"));
    rules.push_back(Rule("double", "(+ ?a ?a)", "(* 2 ?a)"));
    if (relational) {
      for (Rewrite& r : rules) {
        r.relational = std::make_shared<RelationalPattern>(r.lhs);
      }
    }
    g->AddTerm(T("(* (+ x (* y 1)) (+ (* 2 z) (+ x x)))"));
    BackoffScheduler backoff(/*match_limit=*/40, /*ban_length=*/2);
    Runner runner(g, rules, {12, 5'000, 60}, &backoff);
    runner.Run();
    std::vector<std::vector<size_t>> sizes;
    for (const Iteration& it : runner.iterations()) {
      sizes.push_back({it.nodes, it.classes, it.hashcons, it.matches});
    }
    return sizes;
  };
  EGraph compiled(&ops_, &payloads_), relational(&ops_, &payloads_);
  std::vector<std::vector<size_t>> want = run(&compiled, false);
  EXPECT_GT(want.size(), 3u);
  EXPECT_EQ(run(&relational, true), want);
}

}  // namespace
}  // namespace tessel::egraph
