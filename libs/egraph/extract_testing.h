// Test fixtures shared by the extraction tests: e-graphs over the symbolic
// language written as S-expressions, a cost model with a weight per op, and
// random e-graphs with cycles.
#ifndef TESSEL_LIBS_EGRAPH_EXTRACT_TESTING_H_
#define TESSEL_LIBS_EGRAPH_EXTRACT_TESTING_H_

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/string_view.h"
#include "gtest/gtest.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/extract.h"
#include "libs/egraph/symbolic.h"

namespace tessel::egraph::testing {

// An e-graph of the symbolic language: Add("(f x 2)") adds a term.
class SymbolicEGraph {
 public:
  SymbolicEGraph() : lang(&ops, &payloads), egraph(&ops, &payloads) {}

  ClassId Add(absl::string_view text) {
    absl::StatusOr<Term> term = lang.ParseTerm(text);
    EXPECT_TRUE(term.ok()) << term.status();
    return term.ok() ? egraph.AddTerm(*term) : kNoId;
  }
  // Adds both terms and makes them equal (the e-graph is rebuilt).
  ClassId Equate(absl::string_view a, absl::string_view b) {
    ClassId x = Add(a);
    egraph.Union(x, Add(b));
    egraph.Rebuild();
    return egraph.Find(x);
  }
  std::string Print(const Extraction& extraction) const {
    return lang.Print(extraction.term);
  }

  OpTable ops;
  PayloadTable payloads;
  SymbolicLanguage lang;
  EGraph egraph;
};

// An additive model with a weight per op name (1 for the others).
class OpWeights final : public AdditiveCostModel {
 public:
  explicit OpWeights(absl::flat_hash_map<std::string, double> weights)
      : weights_(std::move(weights)) {}
  double NodeCost(const EGraph& egraph, ClassId,
                  const ENodeRef& node) const override {
    auto it = weights_.find(egraph.ops().Name(node.op));
    return it == weights_.end() ? 1 : it->second;
  }

 private:
  absl::flat_hash_map<std::string, double> weights_;
};

// Adds `num_nodes` random e-nodes over the ops a (leaf), b (leaf), f (one
// child), g and h (two children) to `g`'s e-graph, then makes
// `num_unions` random unions, which close cycles; rebuilt.
inline std::vector<ClassId> AddRandomEGraph(SymbolicEGraph& g, uint32_t seed,
                                            int num_nodes, int num_unions) {
  std::mt19937 random(seed);
  const OpId leaves[] = {g.ops.Intern("a"), g.ops.Intern("b")};
  const OpId unary = g.ops.Intern("f");
  const OpId binary[] = {g.ops.Intern("g"), g.ops.Intern("h")};
  std::vector<ClassId> ids = {g.egraph.Add(leaves[0], PayloadTable::kNone)};
  auto any = [&] { return ids[random() % ids.size()]; };
  for (int i = 1; i < num_nodes; ++i) {
    switch (random() % 4) {
      case 0:
        ids.push_back(g.egraph.Add(leaves[random() % 2], PayloadTable::kNone));
        break;
      case 1:
        ids.push_back(g.egraph.Add(unary, PayloadTable::kNone, {any()}));
        break;
      default: {
        ClassId kids[] = {any(), any()};
        ids.push_back(
            g.egraph.Add(binary[random() % 2], PayloadTable::kNone, kids));
      }
    }
  }
  for (int i = 0; i < num_unions; ++i) g.egraph.Union(any(), any());
  g.egraph.Rebuild();
  return ids;
}

// The DAG cost of an extracted term (every term node once) under `model`.
inline double DagCostOf(const EGraph& egraph, const Extraction& extraction,
                        const AdditiveCostModel& model) {
  double total = 0;
  for (uint32_t i = 0; i < extraction.term.size(); ++i) {
    std::vector<ClassId> child_classes;
    for (uint32_t child : extraction.term.children(i)) {
      child_classes.push_back(extraction.classes[child]);
    }
    const Term::Node& node = extraction.term.node(i);
    total += model.NodeCost(egraph, extraction.classes[i],
                            {node.op, node.payload, child_classes});
  }
  return total;
}

}  // namespace tessel::egraph::testing

#endif  // TESSEL_LIBS_EGRAPH_EXTRACT_TESTING_H_
