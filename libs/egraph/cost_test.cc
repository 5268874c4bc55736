#include "libs/egraph/cost.h"

#include "gtest/gtest.h"
#include "libs/egraph/extract_testing.h"

namespace tessel::egraph {
namespace {

using ::tessel::egraph::testing::OpWeights;
using ::tessel::egraph::testing::SymbolicEGraph;

TEST(CostTest, PricesTermsTheEGraphHolds) {
  SymbolicEGraph g;
  g.Add("(f (g x y) (g x y))");
  g.egraph.Rebuild();
  const Term term = *g.lang.ParseTerm("(f (g x y) (g x y))");
  EXPECT_EQ(*TermCost(g.egraph, term, AstSize()), 7);  // a tree cost
  EXPECT_EQ(*TermCost(g.egraph, term, AstDepth()), 3);
  EXPECT_EQ(*TermCost(g.egraph, term, OpWeights({{"g", 0.5}})), 6);
}

TEST(CostTest, TermsTheEGraphLacksHaveNoCost) {
  SymbolicEGraph g;
  g.Add("(f x)");
  g.egraph.Rebuild();
  absl::StatusOr<double> cost =
      TermCost(g.egraph, *g.lang.ParseTerm("(f y)"), AstSize());
  EXPECT_EQ(cost.status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(cost.status().message(),
            "the e-graph does not hold term node 0 ($sym)");
}

}  // namespace
}  // namespace tessel::egraph
