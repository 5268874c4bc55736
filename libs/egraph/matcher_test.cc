#include "libs/egraph/matcher.h"

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include "gtest/gtest.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

class MatcherTest : public testing::SymbolicTest {
 protected:
  using Match = std::vector<ClassId>;  // root, then the subst

  std::set<Match> Search(absl::string_view pattern, size_t limit = ~size_t{0}) {
    VarTable vars;
    CompiledPattern p(P(pattern, &vars));
    Matches out(vars.size());
    size_t found = p.Search(g_, limit, &out);
    EXPECT_EQ(found, out.size());
    return ToSet(out);
  }
  static std::set<Match> ToSet(const Matches& out) {
    std::set<Match> result;
    for (size_t i = 0; i < out.size(); ++i) {
      Match m = {out.root(i)};
      for (ClassId c : out.subst(i).classes()) m.push_back(c);
      EXPECT_TRUE(result.insert(m).second) << "duplicate match";
    }
    return result;
  }

  // The reference: every way to map the pattern onto e-nodes, by brute
  // force over all classes and nodes.
  std::set<Match> Naive(const Pattern& p, uint32_t num_vars) {
    std::set<Match> result;
    for (ClassId root : g_.Classes()) {
      std::vector<std::vector<ClassId>> substs;
      MatchAt(p, p.root(), root, std::vector<ClassId>(num_vars, kNoId),
              &substs);
      for (auto& s : substs) {
        Match m = {root};
        m.insert(m.end(), s.begin(), s.end());
        result.insert(m);
      }
    }
    return result;
  }
  void MatchAt(const Pattern& p, uint32_t node, ClassId c,
               std::vector<ClassId> subst,
               std::vector<std::vector<ClassId>>* out) {
    const Pattern::Node& n = p.node(node);
    if (n.is_var()) {
      if (subst[n.var] == kNoId || subst[n.var] == c) {
        subst[n.var] = c;
        out->push_back(subst);
      }
      return;
    }
    for (NodeId e : g_.Nodes(c)) {
      ENodeRef r = g_.Node(e);
      if (r.op != n.op || r.payload != n.payload ||
          r.children.size() != n.arity) {
        continue;
      }
      std::vector<std::vector<ClassId>> partial = {subst};
      for (uint32_t k = 0; k < n.arity; ++k) {
        std::vector<std::vector<ClassId>> next;
        for (auto& s : partial) {
          MatchAt(p, p.children(node)[k], r.children[k], s, &next);
        }
        partial = std::move(next);
      }
      out->insert(out->end(), partial.begin(), partial.end());
    }
  }
};

TEST_F(MatcherTest, LinearPattern) {
  ClassId a = Add("(+ x (* y 2))");
  Add("(+ y y)");
  g_.Rebuild();
  std::set<Match> m = Search("(+ ?a (* ?b 2))");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ((*m.begin())[0], a);
  EXPECT_EQ((*m.begin())[1], Add("x"));
  EXPECT_EQ((*m.begin())[2], Add("y"));
  EXPECT_EQ(Search("(+ ?a ?b)").size(), 2u);
  EXPECT_TRUE(Search("(+ ?a (* ?b 3))").empty());  // 3 is not in the graph
  EXPECT_TRUE(Search("(- ?a ?b)").empty());
}

TEST_F(MatcherTest, NonLinearPattern) {
  ClassId same = Add("(+ y y)");
  Add("(+ x y)");
  g_.Rebuild();
  std::set<Match> m = Search("(+ ?a ?a)");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ((*m.begin())[0], same);
  // Equal once x = y.
  g_.Union(Add("x"), Add("y"));
  g_.Rebuild();
  EXPECT_EQ(Search("(+ ?a ?a)").size(), 1u);  // one class, one binding
  EXPECT_EQ(Search("(+ ?a ?b)").size(), 1u);
}

TEST_F(MatcherTest, VariableRootMatchesEveryClass) {
  Add("(f (g a) b)");
  g_.Rebuild();
  EXPECT_EQ(Search("?x").size(), g_.NumClasses());
}

TEST_F(MatcherTest, GroundPatterns) {
  ClassId t = Add("(f (g a) b)");
  g_.Rebuild();
  std::set<Match> m = Search("(f (g a) b)");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ((*m.begin())[0], t);
  EXPECT_TRUE(Search("(f (g b) b)").empty());
  // Partly ground: (g ?x) is looked up once ?x is bound.
  EXPECT_EQ(Search("(f (g ?x) ?y)").size(), 1u);
  EXPECT_EQ(Search("(f (g ?x) ?x)").size(), 0u);
}

TEST_F(MatcherTest, CyclicEGraph) {
  // x = (f x): (f (f (f ?y))) matches with ?y = x, the only class.
  ClassId x = Add("x");
  g_.Union(x, Add("(f x)"));
  g_.Rebuild();
  std::set<Match> m = Search("(f (f (f ?y)))");
  ASSERT_EQ(m.size(), 1u);
  EXPECT_EQ((*m.begin())[1], g_.Find(x));
  EXPECT_EQ(Search("(f ?y)").size(), 1u);
}

TEST_F(MatcherTest, LimitAndSearchClass) {
  for (int i = 0; i < 10; ++i) Add("(h " + std::to_string(i) + ")");
  g_.Rebuild();
  EXPECT_EQ(Search("(h ?x)").size(), 10u);
  EXPECT_EQ(Search("(h ?x)", 3).size(), 3u);
  VarTable vars;
  CompiledPattern p(P("(h ?x)", &vars));
  Matches out(vars.size());
  EXPECT_EQ(p.SearchClass(g_, Add("(h 4)"), 100, &out), 1u);
  EXPECT_EQ(p.SearchClass(g_, Add("4"), 100, &out), 0u);
}

TEST_F(MatcherTest, OldMatchesAreCountedNotReturned) {
  Add("(+ a b)");
  g_.Rebuild();
  g_.AdvanceEpoch();
  uint32_t epoch = g_.epoch();
  Add("(+ c d)");
  g_.Rebuild();
  VarTable vars;
  CompiledPattern p(P("(+ ?x ?y)", &vars));
  Matches out(vars.size());
  EXPECT_EQ(p.Search(g_, 100, &out, epoch), 2u);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out.root(0), Add("(+ c d)"));
  // A union moves one of them into the other's class: the match through
  // the moved e-node is new (its root changed), the other one is not.
  out.Clear();
  g_.Union(Add("(+ a b)"), Add("(+ c d)"));
  g_.Rebuild();
  EXPECT_EQ(p.Search(g_, 100, &out, epoch), 2u);
  EXPECT_EQ(out.size(), 1u);
}

// The matcher agrees with brute force on random e-graphs with cycles and
// repeated variables.
TEST_F(MatcherTest, AgreesWithBruteForce) {
  std::mt19937 rng(11);
  const char* patterns[] = {
      "(f ?a ?b)",
      "(f ?a ?a)",
      "(f (g ?a) ?b)",
      "(f (g ?a) ?a)",
      "(f (f ?a ?b) ?c)",
      "(f ?a (f ?b ?a))",
      "(g (g (g ?a)))",
      "(f (g ?a) (g ?a))",
      "(f (g ?a) (g ?b))",
      "(f a ?x)",
      "(f (g a) ?x)",
      "(g ?x)",
      "(f (f ?a ?b) (f ?b ?a))",
      // Blocks: children of the root with structure below them.
      "(f (f (g ?a) ?b) (g ?a))",
      "(f (g (g ?a)) (g (g ?a)))",
      "(f (f ?a (g ?b)) ?b)",
      "(f ?b (f ?a (g ?b)))",
      "(f (f (g a) ?b) ?b)",
  };
  OpId f = ops_.Intern("f"), gop = ops_.Intern("g");
  std::vector<ClassId> ids = {Add("a"), Add("b"), Add("c")};
  for (int round = 0; round < 6; ++round) {
    for (int i = 0; i < 25; ++i) {
      ClassId x = ids[rng() % ids.size()];
      ClassId y = ids[rng() % ids.size()];
      ids.push_back(rng() % 3 ? g_.Add(f, 0, {x, y}) : g_.Add(gop, 0, {x}));
    }
    for (int i = 0; i < 4; ++i) {
      g_.Union(ids[rng() % ids.size()], ids[rng() % ids.size()]);
    }
    g_.Rebuild();
    for (const char* text : patterns) {
      VarTable vars;
      Pattern p = P(text, &vars);
      std::set<Match> naive = Naive(p, vars.size());
      EXPECT_EQ(Search(text), naive) << text << " in round " << round;
    }
  }
}

}  // namespace
}  // namespace tessel::egraph
