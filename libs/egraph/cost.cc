#include "libs/egraph/cost.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tessel::egraph {

double AdditiveCostModel::TreeCost(const EGraph& egraph, ClassId id,
                                   const ENodeRef& node,
                                   absl::Span<const double> child_costs) const {
  double cost = NodeCost(egraph, id, node);
  for (double child : child_costs) cost += child;
  return cost;
}

double AstDepth::TreeCost(const EGraph&, ClassId, const ENodeRef&,
                          absl::Span<const double> child_costs) const {
  double deepest = 0;
  for (double child : child_costs) deepest = std::max(deepest, child);
  return deepest + 1;
}

absl::StatusOr<double> TermCost(const EGraph& egraph, const Term& term,
                                const CostModel& model) {
  if (term.empty()) return absl::InvalidArgumentError("empty term");
  std::vector<ClassId> classes(term.size());
  std::vector<double> costs(term.size());
  std::vector<ClassId> children;
  std::vector<double> child_costs;
  for (uint32_t i = 0; i < term.size(); ++i) {
    children.clear();
    child_costs.clear();
    for (uint32_t child : term.children(i)) {
      children.push_back(classes[child]);
      child_costs.push_back(costs[child]);
    }
    const Term::Node& node = term.node(i);
    std::optional<ClassId> id = egraph.Lookup(node.op, node.payload, children);
    if (!id.has_value()) {
      return absl::NotFoundError(
          absl::StrCat("the e-graph does not hold term node ", i, " (",
                       egraph.ops().Name(node.op), ")"));
    }
    classes[i] = *id;
    costs[i] = model.TreeCost(egraph, *id, {node.op, node.payload, children},
                              child_costs);
  }
  return costs[term.root()];
}

}  // namespace tessel::egraph
