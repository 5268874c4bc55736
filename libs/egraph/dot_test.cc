#include "libs/egraph/dot.h"

#include "gtest/gtest.h"
#include "libs/egraph/extract_testing.h"

namespace tessel::egraph {
namespace {

using ::tessel::egraph::testing::SymbolicEGraph;

TEST(DotTest, ClustersENodesByClass) {
  SymbolicEGraph g;
  g.Equate("x", "(f x)");  // an edge back into its own class
  g.Add("(* x 2)");        // numbered edges, one clipped at each cluster
  g.egraph.Add(g.ops.Intern("note"), g.payloads.String("say \"hi\"\\"));
  g.egraph.Rebuild();
  EXPECT_EQ(ToDot(g.egraph), R"(digraph egraph {
  compound=true
  clusterrank=local
  node [shape=box]
  subgraph cluster_e0 {
    label="e0"
    style=dotted
    n0 [label="$sym x"]
    n1 [label="f"]
  }
  subgraph cluster_e2 {
    label="e2"
    style=dotted
    n2 [label="$num 2"]
  }
  subgraph cluster_e3 {
    label="e3"
    style=dotted
    n3 [label="*"]
  }
  subgraph cluster_e4 {
    label="e4"
    style=dotted
    n4 [label="note \"say \\\"hi\\\"\\\\\""]
  }
  n1 -> n0
  n3 -> n0 [lhead=cluster_e0, label="0"]
  n3 -> n2 [lhead=cluster_e2, label="1"]
}
)");
}

TEST(DotTest, EmptyClassesStillReceiveEdges) {
  SymbolicEGraph g;
  ClassId y = g.Add("y");
  g.Add("(g y)");
  g.egraph.Rebuild();
  g.egraph.RemoveNodesIf(y, [](NodeId) { return true; });
  EXPECT_EQ(ToDot(g.egraph), R"(digraph egraph {
  compound=true
  clusterrank=local
  node [shape=box]
  subgraph cluster_e0 {
    label="e0"
    style=dotted
    e0 [label="no e-nodes", style=dashed]
  }
  subgraph cluster_e1 {
    label="e1"
    style=dotted
    n1 [label="g"]
  }
  n1 -> e0 [lhead=cluster_e0]
}
)");
}

}  // namespace
}  // namespace tessel::egraph
