#include "libs/egraph/extract.h"

#include <cmath>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/extract_testing.h"

namespace tessel::egraph {
namespace {

using ::tessel::egraph::testing::AddRandomEGraph;
using ::tessel::egraph::testing::OpWeights;
using ::tessel::egraph::testing::SymbolicEGraph;

constexpr double kInfinity = std::numeric_limits<double>::infinity();

TEST(GreedyExtractorTest, ChoosesTheSmallestTree) {
  SymbolicEGraph g;
  ClassId root = g.Equate("(f x x x)", "(g (g x))");
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  absl::StatusOr<Extraction> best = greedy->Extract(root);
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(g.Print(*best), "(g (g x))");
  EXPECT_EQ(best->cost, 3);
  EXPECT_EQ(best->classes.back(), root);
  ASSERT_EQ(best->term.size(), 3);  // x, (g x), (g (g x)): one node a class
}

TEST(GreedyExtractorTest, SharedSubtermsAreOneTermNode) {
  SymbolicEGraph g;
  ClassId root = g.Add("(f (g x) (g x))");
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  absl::StatusOr<Extraction> best = greedy->Extract(root);
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(g.Print(*best), "(f (g x) (g x))");
  EXPECT_EQ(best->cost, 5);         // the tree's size
  EXPECT_EQ(best->term.size(), 3);  // the DAG's
}

TEST(GreedyExtractorTest, NeverFollowsACycle) {
  SymbolicEGraph g;
  // x = (f x): the class holds x and an e-node whose child is the class.
  ClassId x = g.Equate("x", "(f x)");
  ClassId root = g.Add("(g (f x))");
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  EXPECT_EQ(greedy->Cost(x), 1);
  absl::StatusOr<Extraction> best = greedy->Extract(root);
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(g.Print(*best), "(g x)");
}

TEST(GreedyExtractorTest, ClassesOnlyOnCyclesHaveNoTerm) {
  SymbolicEGraph g;
  const NodeId z = g.Add("z");
  const ClassId gz = g.Add("(g z)");
  const ClassId fgz = g.Add("(f (g z))");
  const ClassId root = g.Equate("(h (f (g z)))", "k");
  // z = (f (g z)), then z itself is pruned: (f (g ...)) and (g ...) are left
  // with e-nodes that only lead back to each other.
  g.egraph.Union(z, fgz);
  g.egraph.Rebuild();
  g.egraph.RemoveNodesIf(z, [&](NodeId n) { return n == z; });
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  EXPECT_FALSE(greedy->HasTerm(fgz));
  EXPECT_FALSE(greedy->HasTerm(gz));
  EXPECT_EQ(greedy->Cost(gz), kInfinity);
  EXPECT_EQ(greedy->BestNode(gz), kNoId);
  absl::StatusOr<Extraction> none = greedy->Extract(fgz);
  EXPECT_EQ(none.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(none.status().message(),
            absl::StrCat("e-class e", g.egraph.Find(fgz),
                         " has no term of finite cost"));
  absl::StatusOr<Extraction> best = greedy->Extract(root);
  ASSERT_TRUE(best.ok()) << best.status();
  EXPECT_EQ(g.Print(*best), "k");
}

TEST(GreedyExtractorTest, TiesGoToTheFirstENodeOfTheClass) {
  for (const auto& [first, second] :
       {std::pair{"a", "b"}, std::pair{"b", "a"}}) {
    SymbolicEGraph g;
    ClassId c = g.Equate(first, second);
    absl::StatusOr<GreedyExtractor> greedy =
        GreedyExtractor::Create(g.egraph, AstSize());
    ASSERT_TRUE(greedy.ok()) << greedy.status();
    EXPECT_EQ(greedy->BestNode(c), g.egraph.Nodes(c).front());
  }
}

TEST(GreedyExtractorTest, AstDepthIsATreeCost) {
  SymbolicEGraph g;
  ClassId root = g.Equate("(g (h x y) (h y x))", "(f (f (f x)))");
  absl::StatusOr<GreedyExtractor> by_size =
      GreedyExtractor::Create(g.egraph, AstSize());
  absl::StatusOr<GreedyExtractor> by_depth =
      GreedyExtractor::Create(g.egraph, AstDepth());
  ASSERT_TRUE(by_size.ok() && by_depth.ok());
  EXPECT_EQ(g.Print(*by_size->Extract(root)), "(f (f (f x)))");
  EXPECT_EQ(g.Print(*by_depth->Extract(root)), "(g (h x y) (h y x))");
  EXPECT_EQ(by_depth->Cost(root), 3);
}

// LIAR's base cost (Listing 6) prices `build N f` as N * (cost(f) + 1) + 1:
// the size N is the e-node's payload. A library call costs 0.8 N plus a
// fixed overhead here, so a short loop stays a loop and a long one becomes
// a call.
class LoopOrCall final : public CostModel {
 public:
  explicit LoopOrCall(const OpTable& ops)
      : build_(*ops.Find("build")), call_(*ops.Find("call")) {}
  double TreeCost(const EGraph& egraph, ClassId, const ENodeRef& node,
                  absl::Span<const double> child_costs) const override {
    double children = 0;
    for (double c : child_costs) children += c;
    if (node.op != build_ && node.op != call_) return children + 1;
    const double n = egraph.payloads().IntValue(node.payload);
    return node.op == build_ ? n * (children + 1) + 1 : children + 0.8 * n + 5;
  }

 private:
  OpId build_, call_;
};

TEST(GreedyExtractorTest, CostModelsReadPayloads) {
  SymbolicEGraph g;
  const OpId build = g.ops.Intern("build"), call = g.ops.Intern("call");
  const ClassId body = g.Add("(mul x)"), x = g.Add("x");
  auto loop_or_call = [&](int64_t n) {
    ClassId loop = g.egraph.Add(build, g.payloads.Int(n), {body});
    g.egraph.Union(loop, g.egraph.Add(call, g.payloads.Int(n), {x}));
    return loop;
  };
  const ClassId short_loop = loop_or_call(1), long_loop = loop_or_call(64);
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, LoopOrCall(g.ops));
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  EXPECT_EQ(g.egraph.Node(greedy->BestNode(short_loop)).op, build);
  EXPECT_EQ(greedy->Cost(short_loop), 1 * (2 + 1) + 1);
  EXPECT_EQ(g.egraph.Node(greedy->BestNode(long_loop)).op, call);
  EXPECT_EQ(greedy->Cost(long_loop), 1 + 0.8 * 64 + 5);
}

TEST(GreedyExtractorTest, InfiniteCostsForbidENodes) {
  SymbolicEGraph g;
  ClassId root = g.Equate("(helper x)", "(f (f (f x)))");
  ClassId stuck = g.Add("(helper y)");
  g.egraph.Rebuild();
  OpWeights no_helpers({{"helper", kInfinity}});
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, no_helpers);
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  EXPECT_EQ(g.Print(*greedy->Extract(root)), "(f (f (f x)))");
  EXPECT_FALSE(greedy->HasTerm(stuck));
}

TEST(GreedyExtractorTest, CostsGrowToInfinityRatherThanWrapAround) {
  SymbolicEGraph g;
  // c(i+1) = (g c(i) c(i)): a DAG of i + 1 e-nodes whose tree has 2^(i+1) - 1.
  const OpId op = g.ops.Intern("g");
  std::vector<ClassId> level = {g.Add("x")};
  for (int i = 0; i < 1100; ++i) {
    ClassId kids[] = {level.back(), level.back()};
    level.push_back(g.egraph.Add(op, PayloadTable::kNone, kids));
  }
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  EXPECT_EQ(greedy->Cost(level[1000]), std::ldexp(1.0, 1001));
  EXPECT_FALSE(greedy->HasTerm(level[1100]));
  EXPECT_EQ(greedy->Extract(level[1100]).status().code(),
            absl::StatusCode::kNotFound);
}

TEST(GreedyExtractorTest, ReportsModelsThatAreNotMonotone) {
  SymbolicEGraph g;
  g.Add("(f x)");
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, OpWeights({{"f", -5}}));
  EXPECT_EQ(greedy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(greedy.status().message(),
            "cost model is not monotone: e-node (f e0) of e-class e1 costs "
            "-4, less than one of its children (1)");
}

TEST(GreedyExtractorTest, ReportsCostsThatAreNotNumbers) {
  SymbolicEGraph g;
  g.Add("(f x)");
  g.egraph.Rebuild();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, OpWeights({{"$sym", std::nan("")}}));
  EXPECT_EQ(greedy.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(greedy.status().message(),
            "cost model returned nan for e-node ($sym x) of e-class e0");
  greedy = GreedyExtractor::Create(g.egraph, OpWeights({{"$sym", -kInfinity}}));
  EXPECT_EQ(greedy.status().message(),
            "cost model returned -inf for e-node ($sym x) of e-class e0");
}

TEST(GreedyExtractorTest, NeedsARebuiltEGraph) {
  SymbolicEGraph g;
  g.egraph.Union(g.Add("(f x)"), g.Add("(f y)"));
  EXPECT_EQ(GreedyExtractor::Create(g.egraph, AstSize()).status().code(),
            absl::StatusCode::kFailedPrecondition);
}

// The extractor settles each class once; egg's extractor repeats passes
// over all classes until no cost improves. Both must find the same least
// fixpoint.
std::vector<double> NaiveFixpoint(const EGraph& egraph,
                                  const CostModel& model) {
  std::vector<double> cost(egraph.NumIds(), kInfinity);
  for (bool changed = true; changed;) {
    changed = false;
    for (ClassId c : egraph.Classes()) {
      for (NodeId n : egraph.Nodes(c)) {
        ENodeRef node = egraph.Node(n);
        std::vector<double> child_costs;
        for (ClassId child : node.children) {
          child_costs.push_back(cost[egraph.Find(child)]);
        }
        double total = model.TreeCost(egraph, c, node, child_costs);
        if (total < cost[c]) {
          cost[c] = total;
          changed = true;
        }
      }
    }
  }
  return cost;
}

TEST(GreedyExtractorTest, ReachesEggsFixpointOnRandomCyclicEGraphs) {
  const OpWeights weights({{"a", 1}, {"b", 4}, {"f", 2}, {"g", 3}, {"h", 0.5}});
  int classes_without_term = 0;
  for (uint32_t seed = 0; seed < 60; ++seed) {
    SymbolicEGraph g;
    AddRandomEGraph(g, seed, 40, 12);
    // Without the leaf b, some classes only lie on cycles.
    const OpId b = *g.ops.Find("b");
    for (ClassId c : g.egraph.Classes()) {
      g.egraph.RemoveNodesIf(
          c, [&](NodeId n) { return g.egraph.Node(n).op == b; });
    }
    absl::StatusOr<GreedyExtractor> greedy =
        GreedyExtractor::Create(g.egraph, weights);
    ASSERT_TRUE(greedy.ok()) << greedy.status();
    const std::vector<double> expected = NaiveFixpoint(g.egraph, weights);
    for (ClassId c : g.egraph.Classes()) {
      ASSERT_EQ(greedy->Cost(c), expected[c]) << "seed " << seed;
      if (!greedy->HasTerm(c)) {
        ++classes_without_term;
        continue;
      }
      absl::StatusOr<Extraction> best = greedy->Extract(c);
      ASSERT_TRUE(best.ok()) << best.status();
      EXPECT_EQ(best->classes.back(), c);
      EXPECT_EQ(*TermCost(g.egraph, best->term, weights), best->cost);
    }
  }
  // The random e-graphs do exercise classes that only lie on cycles.
  EXPECT_GT(classes_without_term, 0);
}

}  // namespace
}  // namespace tessel::egraph
