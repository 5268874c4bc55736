#include "libs/egraph/extract_dag.h"

#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "gtest/gtest.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/extract.h"
#include "libs/egraph/extract_testing.h"

namespace tessel::egraph {
namespace {

using ::tessel::egraph::testing::AddRandomEGraph;
using ::tessel::egraph::testing::DagCostOf;
using ::tessel::egraph::testing::OpWeights;
using ::tessel::egraph::testing::SymbolicEGraph;

TEST(ExtractDagTest, CountsSharedSubtermsOnceWhereGreedyCannot) {
  SymbolicEGraph g;
  ClassId root = g.Equate("(f x x x)", "(g (g x))");
  absl::StatusOr<Extraction> exact = ExtractDag(g.egraph, root, AstSize());
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(g.Print(*exact), "(f x x x)");
  EXPECT_EQ(exact->cost, 2);  // f and x
  EXPECT_EQ(exact->term.size(), 2);

  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, AstSize());
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  absl::StatusOr<Extraction> tree = greedy->Extract(root);
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(g.Print(*tree), "(g (g x))");
  EXPECT_EQ(DagCostOf(g.egraph, *tree, AstSize()), 3);
}

TEST(ExtractDagTest, AgreesWithGreedyWhenNothingCanBeShared) {
  SymbolicEGraph g;
  ClassId root = g.Add("(+ (* x 2) (/ y 4))");
  g.Equate("(* x 2)", "(<< x 1)");
  g.Equate("(/ y 4)", "(>> y 2)");
  const OpWeights weights({{"*", 4}, {"<<", 1}, {"/", 8}, {">>", 1}});
  absl::StatusOr<Extraction> exact = ExtractDag(g.egraph, root, weights);
  ASSERT_TRUE(exact.ok()) << exact.status();
  absl::StatusOr<GreedyExtractor> greedy =
      GreedyExtractor::Create(g.egraph, weights);
  ASSERT_TRUE(greedy.ok()) << greedy.status();
  absl::StatusOr<Extraction> tree = greedy->Extract(root);
  ASSERT_TRUE(tree.ok()) << tree.status();
  EXPECT_EQ(g.Print(*exact), "(+ (<< x 1) (>> y 2))");
  EXPECT_EQ(g.Print(*tree), g.Print(*exact));
  EXPECT_EQ(tree->cost, 7);
  EXPECT_EQ(exact->cost, 7);
}

TEST(ExtractDagTest, RanksForbidCycles) {
  SymbolicEGraph g;
  // A = {p, (g B)} and B = {q, (h A)}: choosing (g B) and (h A) would cost
  // 2 but is no term.
  ClassId a = g.Equate("p", "(g q)");
  g.Equate("q", "(h p)");
  ClassId root = g.Add("(k p)");
  g.egraph.Rebuild();
  const OpWeights weights({{"$sym", 10}, {"g", 1}, {"h", 1}, {"k", 1}});
  absl::StatusOr<Extraction> exact = ExtractDag(g.egraph, root, weights);
  ASSERT_TRUE(exact.ok()) << exact.status();
  EXPECT_EQ(g.Print(*exact), "(k p)");
  EXPECT_EQ(exact->cost, 11);
  absl::StatusOr<Extraction> leaf = ExtractDag(g.egraph, a, weights);
  ASSERT_TRUE(leaf.ok()) << leaf.status();
  EXPECT_EQ(g.Print(*leaf), "p");
}

// The least DAG cost of a term of `root`, by trying every choice of one
// e-node per class; nullopt if there are too many choices.
std::optional<double> BruteForceDagCost(const EGraph& egraph, ClassId root,
                                        const AdditiveCostModel& model) {
  absl::Span<const ClassId> classes = egraph.Classes();
  size_t combinations = 1;
  for (ClassId c : classes) {
    combinations *= egraph.Nodes(c).size();
    if (combinations > 100000) return std::nullopt;
  }
  absl::flat_hash_map<ClassId, size_t> pick;
  double best = std::numeric_limits<double>::infinity();
  for (size_t i = 0; i < combinations; ++i) {
    size_t rest = i;
    for (ClassId c : classes) {
      pick[c] = rest % egraph.Nodes(c).size();
      rest /= egraph.Nodes(c).size();
    }
    absl::StatusOr<Extraction> term = BuildChosenTerm(
        egraph, root, [&](ClassId c) { return egraph.Nodes(c)[pick[c]]; });
    if (term.ok()) best = std::min(best, DagCostOf(egraph, *term, model));
  }
  return best;
}

TEST(ExtractDagTest, FindsTheLeastDagCostOnRandomCyclicEGraphs) {
  // The second model has a free e-node, which needs no soft constraint.
  const OpWeights models[] = {
      OpWeights({{"a", 1}, {"b", 2}, {"f", 2}, {"g", 3}, {"h", 0.5}}),
      OpWeights({{"a", 0}, {"b", 2}, {"f", 2}, {"g", 3}, {"h", 0.5}})};
  int compared = 0, better_than_greedy = 0;
  for (uint32_t seed = 0; seed < 80; ++seed) {
    const OpWeights& weights = models[seed % 2];
    SymbolicEGraph g;
    std::vector<ClassId> ids = AddRandomEGraph(g, seed / 2, 18, 4);
    absl::StatusOr<GreedyExtractor> greedy =
        GreedyExtractor::Create(g.egraph, weights);
    ASSERT_TRUE(greedy.ok()) << greedy.status();
    const ClassId root = g.egraph.Find(ids.back());
    absl::StatusOr<Extraction> exact = ExtractDag(g.egraph, root, weights);
    ASSERT_TRUE(exact.ok()) << exact.status();
    EXPECT_EQ(exact->classes.back(), root);
    EXPECT_EQ(DagCostOf(g.egraph, *exact, weights), exact->cost);
    const double greedy_dag_cost =
        DagCostOf(g.egraph, *greedy->Extract(root), weights);
    EXPECT_LE(exact->cost, greedy_dag_cost) << "seed " << seed;
    if (exact->cost < greedy_dag_cost) ++better_than_greedy;
    std::optional<double> best = BruteForceDagCost(g.egraph, root, weights);
    if (!best.has_value()) continue;
    EXPECT_EQ(exact->cost, *best) << "seed " << seed;
    ++compared;
  }
  EXPECT_GT(compared, 60);
  EXPECT_GT(better_than_greedy, 0);
}

TEST(ExtractDagTest, RefusesTooManyENodes) {
  SymbolicEGraph g;
  ClassId root = g.Equate("(f x x x)", "(g (g x))");
  absl::StatusOr<Extraction> exact =
      ExtractDag(g.egraph, root, AstSize(), {.max_nodes = 3});
  EXPECT_EQ(exact.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_EQ(exact.status().message(),
            "exact extraction: more than 3 candidate e-nodes (the limit)");
}

TEST(ExtractDagTest, StopsAtTheSolverBudget) {
  SymbolicEGraph g;
  std::vector<ClassId> ids = AddRandomEGraph(g, 7, 200, 60);
  absl::StatusOr<Extraction> exact =
      ExtractDag(g.egraph, ids.back(), AstSize(), {.solver_budget = 1});
  EXPECT_EQ(exact.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(ExtractDagTest, NeedsNonNegativeCosts) {
  SymbolicEGraph g;
  ClassId root = g.Add("(f x)");
  g.egraph.Rebuild();
  absl::StatusOr<Extraction> exact =
      ExtractDag(g.egraph, root, OpWeights({{"$sym", -1}}));
  EXPECT_EQ(exact.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(exact.status().message(),
            "cost model gave e-node $sym of e-class e0 the cost -1; exact "
            "extraction needs costs that are numbers >= 0");
}

TEST(ExtractDagTest, ReportsClassesWithoutTerms) {
  SymbolicEGraph g;
  ClassId root = g.Add("(helper x)");
  g.egraph.Rebuild();
  absl::StatusOr<Extraction> exact = ExtractDag(
      g.egraph, root,
      OpWeights({{"helper", std::numeric_limits<double>::infinity()}}));
  EXPECT_EQ(exact.status().code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace tessel::egraph
