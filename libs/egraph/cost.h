// Cost models for extraction: what a term chosen from an e-graph costs.
//
// A cost is a double. Doubles cannot wrap around: a cost that outgrows the
// range becomes +infinity, which extraction treats as "never choose" rather
// than as a small number. A model may also return +infinity on purpose, for
// e-nodes that must not appear in an extracted term (helper forms that no
// later stage understands). NaN and -infinity are bugs in the model; the
// extractors report them as errors.
//
// Models are pluggable: a target's cost model (LIAR's Listings 6-8, where a
// `build N f` costs N times its body) reads the e-node it prices (op,
// payload, children) and may read the e-graph's analyses for the e-node's
// class, e.g. the shape of the value it computes.
#ifndef TESSEL_LIBS_EGRAPH_COST_H_
#define TESSEL_LIBS_EGRAPH_COST_H_

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/egraph/analysis.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/term.h"

namespace tessel::egraph {

// The cost of a term as a function of its head e-node and the costs of its
// children's terms (egg's CostFunction): the cost of a tree.
//
// The greedy extractor finds the cheapest term of every class bottom-up, so
// a model must be monotone: the cost must not decrease when a child's cost
// grows, and must be at least the cost of every child (Knuth's "superior"
// functions). The extractor reports a model that violates the second rule.
class CostModel {
 public:
  virtual ~CostModel() = default;

  // The cost of the term headed by `node`, an e-node of canonical class
  // `id`, whose children's terms cost `child_costs` (one per child, in
  // order).
  virtual double TreeCost(const EGraph& egraph, ClassId id,
                          const ENodeRef& node,
                          absl::Span<const double> child_costs) const = 0;
};

// A model in which a term costs the sum of its e-nodes' own costs. Only for
// such models does "count a shared subterm once" (the cost of a DAG, which
// the exact extractor minimises) have a meaning; LIAR's models, which
// multiply a body's cost by an iteration count, are not additive.
class AdditiveCostModel : public CostModel {
 public:
  // The cost of `node` itself, an e-node of canonical class `id`. Must be
  // non-negative for the exact extractor.
  virtual double NodeCost(const EGraph& egraph, ClassId id,
                          const ENodeRef& node) const = 0;

  // NodeCost plus the children's costs.
  double TreeCost(const EGraph& egraph, ClassId id, const ENodeRef& node,
                  absl::Span<const double> child_costs) const final;
};

// The number of e-nodes of a term (egg's AstSize).
class AstSize final : public AdditiveCostModel {
 public:
  double NodeCost(const EGraph&, ClassId, const ENodeRef&) const override {
    return 1;
  }
};

// The number of e-nodes on a term's longest root-to-leaf path (egg's
// AstDepth).
class AstDepth final : public CostModel {
 public:
  double TreeCost(const EGraph& egraph, ClassId id, const ENodeRef& node,
                  absl::Span<const double> child_costs) const override;
};

// The tree cost under `model` of `term`, a term that `egraph` (clean)
// holds, such as the input it was built from; NotFound if it does not hold
// it.
absl::StatusOr<double> TermCost(const EGraph& egraph, const Term& term,
                                const CostModel& model);

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_COST_H_
