// Extraction: choosing one term from an e-class of a saturated e-graph.
//
// GreedyExtractor finds, for every class, the term of least tree cost under
// a CostModel (egg's Extractor); ExtractDag (extract_dag.h) finds the term
// of least DAG cost, shared subterms counted once, for small e-graphs.
#ifndef TESSEL_LIBS_EGRAPH_EXTRACT_H_
#define TESSEL_LIBS_EGRAPH_EXTRACT_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/term.h"

namespace tessel::egraph {

// A term chosen from an e-graph. Every e-class it visits contributes one
// term node, so a subterm that occurs several times is one node with
// several parents (the term is still the tree those indices denote).
struct Extraction {
  Term term;
  // classes[i]: the canonical e-class that term node i was chosen from.
  std::vector<ClassId> classes;
  // What the extractor minimised: the tree cost (GreedyExtractor) or the
  // DAG cost (ExtractDag).
  double cost = 0;
};

// The cheapest term of every e-class under a cost model.
//
// Create computes, in one bottom-up pass, the least cost of every class and
// an e-node that attains it: Knuth's generalisation of Dijkstra's algorithm
// to grammars ("A generalization of Dijkstra's algorithm", 1977), which
// reaches the same least fixpoint as egg's repeated passes over all classes
// for monotone models, and prices every e-node once. A class's cost becomes
// final when it is the least of all pending candidates, and an e-node
// becomes a candidate once all of its children's costs are final, so the
// choices are well-founded: cycles are never followed, and a class whose
// every e-node lies on a cycle (or costs +infinity) has no term.
//
// Ties are broken deterministically: candidates of equal cost settle their
// classes in class-id order, and a class takes, of its equally cheap
// candidates, the one first in its (sorted) node list. The same e-graph
// therefore always gives the same terms.
class GreedyExtractor {
 public:
  // Prices every class of `egraph`, which must be clean (rebuilt). Errors:
  // FailedPrecondition for an unclean e-graph; InvalidArgument when the
  // model returns NaN or -infinity, or prices an e-node below one of its
  // children. `egraph` must outlive the extractor and not change meanwhile.
  static absl::StatusOr<GreedyExtractor> Create(const EGraph& egraph,
                                                const CostModel& model);

  // Whether the class of `id` has a term of finite cost.
  bool HasTerm(ClassId id) const { return best_[egraph_->Find(id)] != kNoId; }
  // The least cost of a term of `id`'s class; +infinity if it has none.
  double Cost(ClassId id) const { return cost_[egraph_->Find(id)]; }
  // The e-node heading that term; kNoId if the class has none.
  NodeId BestNode(ClassId id) const { return best_[egraph_->Find(id)]; }

  // The cheapest term of `id`'s class; NotFound if it has no finite term.
  absl::StatusOr<Extraction> Extract(ClassId id) const;

 private:
  explicit GreedyExtractor(const EGraph* egraph);

  const EGraph* egraph_;
  // Indexed by canonical class id.
  std::vector<double> cost_;
  std::vector<NodeId> best_;
};

// The term that follows `choice` (an e-node per canonical class) from the
// class of `root`, each class visited once, children before parents; its
// cost is left 0. Internal error if the choices run into a cycle or a class
// without a choice. Shared by the extractors.
absl::StatusOr<Extraction> BuildChosenTerm(
    const EGraph& egraph, ClassId root,
    absl::FunctionRef<NodeId(ClassId)> choice);

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_EXTRACT_H_
