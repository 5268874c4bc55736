#include "libs/egraph/egraph.h"

#include <random>

#include "gtest/gtest.h"
#include "libs/egraph/test_util.h"

namespace tessel::egraph {
namespace {

using EGraphTest = testing::SymbolicTest;

TEST_F(EGraphTest, UnionFind) {
  ClassId a = Add("a"), b = Add("b"), c = Add("c");
  EXPECT_EQ(g_.NumClasses(), 3u);
  EXPECT_NE(g_.Find(a), g_.Find(b));
  EXPECT_TRUE(g_.Union(a, b));
  EXPECT_FALSE(g_.Union(b, a));
  EXPECT_EQ(g_.Find(a), g_.Find(b));
  EXPECT_NE(g_.Find(a), g_.Find(c));
  EXPECT_TRUE(g_.Union(c, a));
  EXPECT_EQ(g_.NumClasses(), 1u);
  g_.Rebuild();
  EXPECT_EQ(g_.Classes().size(), 1u);
  EXPECT_EQ(g_.Nodes(g_.Find(a)).size(), 3u);
  ExpectValid();
}

TEST_F(EGraphTest, HashConsing) {
  ClassId x = Add("(+ a (* b 2))");
  EXPECT_EQ(g_.NumNodes(), 5u);
  EXPECT_EQ(Add("(+ a (* b 2))"), x);
  EXPECT_EQ(Add("(* b 2)"), *g_.LookupTerm(T("(* b 2)")));
  EXPECT_EQ(g_.NumNodes(), 5u);
  // Ints and floats, ops of different arity are different e-nodes.
  EXPECT_NE(Add("2"), Add("2.0"));
  EXPECT_NE(Add("(f a)"), Add("(f a a)"));
  EXPECT_FALSE(g_.LookupTerm(T("(+ a b)")).has_value());
  g_.Rebuild();
  ExpectValid();
}

TEST_F(EGraphTest, Congruence) {
  ClassId fa = Add("(f a)");
  ClassId fb = Add("(f b)");
  ClassId gfa = Add("(g (f a) c)");
  ClassId gfb = Add("(g (f b) c)");
  EXPECT_NE(g_.Find(fa), g_.Find(fb));
  g_.Union(Add("a"), Add("b"));
  // Deferred: congruence is repaired by Rebuild.
  EXPECT_NE(g_.Find(fa), g_.Find(fb));
  EXPECT_EQ(g_.Rebuild(), 2u);
  EXPECT_EQ(g_.Find(fa), g_.Find(fb));
  EXPECT_EQ(g_.Find(gfa), g_.Find(gfb));
  EXPECT_EQ(g_.NumClasses(), 4u);  // {a,b} {f} {c} {g}
  EXPECT_EQ(g_.NumNodes(), 5u);    // a b (f a) c (g (f a) c)
  ExpectValid();
}

TEST_F(EGraphTest, CyclicCongruence) {
  // x = (f x): then (f (f x)) is x too.
  ClassId x = Add("x");
  ClassId fx = Add("(f x)");
  ClassId ffx = Add("(f (f x))");
  g_.Union(x, fx);
  g_.Rebuild();
  EXPECT_EQ(g_.Find(ffx), g_.Find(x));
  EXPECT_EQ(g_.NumClasses(), 1u);
  EXPECT_EQ(g_.NumNodes(), 2u);
  EXPECT_EQ(Add("(f (f (f x)))"), g_.Find(x));
  ExpectValid();
}

TEST_F(EGraphTest, AddBetweenUnionAndRebuild) {
  // (f b) is added after a = b but before the rebuild: the stale (f a) is
  // found congruent when rebuilt.
  ClassId fa = Add("(f a)");
  g_.Union(Add("a"), Add("b"));
  ClassId fb = Add("(f b)");
  g_.Rebuild();
  EXPECT_EQ(g_.Find(fa), g_.Find(fb));
  ExpectValid();
}

TEST_F(EGraphTest, NodesAreSortedAndIndexedByOp) {
  ClassId a = Add("(h z)");
  g_.Union(a, Add("(f y)"));
  g_.Union(a, Add("(f x)"));
  g_.Union(a, Add("q"));
  g_.Rebuild();
  ExpectValid();
  OpId f = *ops_.Find("f");
  EXPECT_EQ(g_.NodesWithOp(f).size(), 2u);
  absl::Span<const NodeId> nodes = g_.Nodes(g_.Find(a));
  ASSERT_EQ(nodes.size(), 4u);
  for (size_t i = 1; i < nodes.size(); ++i) {
    EXPECT_LE(g_.Node(nodes[i - 1]).op, g_.Node(nodes[i]).op);
  }
}

TEST_F(EGraphTest, RemoveNodesIfKeepsThemHashConsed) {
  ClassId sum = Add("(+ 1 2)");
  ClassId three = Add("3");
  g_.Union(sum, three);
  g_.Rebuild();
  EXPECT_EQ(g_.NumNodes(), 4u);
  OpId plus = *ops_.Find("+");
  g_.RemoveNodesIf(sum, [&](NodeId n) { return g_.Node(n).op == plus; });
  g_.Rebuild();
  EXPECT_EQ(g_.NumNodes(), 3u);
  EXPECT_EQ(g_.Nodes(g_.Find(sum)).size(), 1u);
  EXPECT_TRUE(g_.NodesWithOp(plus).empty());
  EXPECT_EQ(g_.HashconsSize(), 4u);
  // Adding it again finds the class and does not bring it back.
  EXPECT_EQ(Add("(+ 1 2)"), g_.Find(three));
  EXPECT_EQ(g_.NumNodes(), 3u);
  ExpectValid();
}

TEST_F(EGraphTest, PrunedNodeStillPropagatesCongruence) {
  ClassId f1 = Add("(f a)");
  ClassId f2 = Add("(f b)");
  OpId f = *ops_.Find("f");
  g_.Union(f1, Add("c1"));
  g_.Rebuild();
  g_.RemoveNodesIf(f1, [&](NodeId n) { return g_.Node(n).op == f; });
  g_.Union(Add("a"), Add("b"));
  g_.Rebuild();
  // (f a) was pruned but still hash-consed: it meets (f b) in the rebuild.
  EXPECT_EQ(g_.Find(f1), g_.Find(f2));
  EXPECT_EQ(g_.NodesWithOp(f).size(), 1u);
  ExpectValid();
}

// Random terms and unions; after every rebuild the invariants hold and the
// result is congruence closed (two e-nodes with equal children share a
// class, which Verify checks through the hash-cons table).
TEST_F(EGraphTest, RandomUnionsKeepInvariants) {
  std::mt19937 rng(7);
  std::vector<ClassId> ids;
  const char* leaves[] = {"a", "b", "c", "d"};
  for (const char* leaf : leaves) ids.push_back(Add(leaf));
  OpId f = ops_.Intern("f"), h = ops_.Intern("h");
  for (int round = 0; round < 40; ++round) {
    for (int i = 0; i < 20; ++i) {
      ClassId x = ids[rng() % ids.size()];
      ClassId y = ids[rng() % ids.size()];
      ids.push_back(rng() % 2 ? g_.Add(f, 0, {x, y}) : g_.Add(h, 0, {x}));
    }
    for (int i = 0; i < 3; ++i) {
      g_.Union(ids[rng() % ids.size()], ids[rng() % ids.size()]);
    }
    g_.Rebuild();
    absl::Status s = g_.Verify();
    ASSERT_TRUE(s.ok()) << "round " << round << ": " << s;
  }
  EXPECT_LT(g_.NumClasses(), ids.size());
}

// egg-style constant folding over ints, pruning non-leaves of constant
// classes as egg's math test does.
class ConstantFold : public AnalysisOf<std::optional<int64_t>> {
 public:
  ConstantFold(const OpTable& ops, PayloadTable& payloads, OpId num)
      : payloads_(payloads),
        num_(num),
        plus_(*ops.Find("+")),
        times_(*ops.Find("*")) {}

  std::optional<int64_t> Make(const EGraph& g, const ENodeRef& n) override {
    if (n.op == num_) return payloads_.IntValue(n.payload);
    if (n.children.size() != 2) return std::nullopt;
    std::optional<int64_t> a = Get(g, n.children[0]);
    std::optional<int64_t> b = Get(g, n.children[1]);
    if (!a || !b) return std::nullopt;
    if (n.op == plus_) return *a + *b;
    if (n.op == times_) return *a * *b;
    return std::nullopt;
  }
  DidMerge Merge(std::optional<int64_t>& into,
                 std::optional<int64_t> from) override {
    if (!into && from) {
      into = from;
      return {true, false};
    }
    return {false, into.has_value() && !from.has_value()};
  }
  void Modify(EGraph& g, ClassId id) override {
    std::optional<int64_t> value = (*this)[id];
    if (!value) return;
    ClassId c = g.Add(num_, payloads_.Int(*value));
    g.Union(id, c);
    g.RemoveNodesIf(id, [&](NodeId n) { return !g.Node(n).children.empty(); });
  }

 private:
  PayloadTable& payloads_;
  OpId num_;
  OpId plus_;
  OpId times_;
};

TEST_F(EGraphTest, ConstantFoldingAnalysis) {
  ops_.Intern("+");
  ops_.Intern("*");
  ConstantFold fold(ops_, payloads_, lang_.number_op());
  g_.AddAnalysis(&fold);
  ClassId sum = Add("(+ 1 2)");
  EXPECT_TRUE(Represents(sum, "3"));
  EXPECT_EQ(fold.Get(g_, sum), 3);
  // (* x (+ 1 2)) becomes 12 once x = 4: the parent is re-analysed.
  ClassId prod = Add("(* x (+ 1 2))");
  EXPECT_FALSE(fold.Get(g_, prod).has_value());
  g_.Union(Add("x"), Add("4"));
  g_.Rebuild();
  EXPECT_EQ(fold.Get(g_, prod), 12);
  EXPECT_TRUE(Represents(prod, "12"));
  // Pruned: the constant classes keep only their leaves.
  EXPECT_EQ(g_.Nodes(g_.Find(prod)).size(), 1u);
  EXPECT_EQ(g_.Nodes(g_.Find(sum)).size(), 1u);
  ExpectValid();
}

}  // namespace
}  // namespace tessel::egraph
