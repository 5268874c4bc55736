// Exact extraction by DAG cost: the term whose distinct e-classes' chosen
// e-nodes cost least in total, so that a subterm used twice is paid once
// (what generated code pays when it computes a shared value once). Greedy
// tree-cost extraction cannot see sharing; this extractor asks Z3's
// optimizer, so it is for small e-graphs, and refuses larger ones with a
// status the caller can recognise and fall back to GreedyExtractor on.
#ifndef TESSEL_LIBS_EGRAPH_EXTRACT_DAG_H_
#define TESSEL_LIBS_EGRAPH_EXTRACT_DAG_H_

#include <cstddef>
#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/egraph/cost.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/extract.h"
#include "libs/egraph/ids.h"

namespace tessel::egraph {

struct DagExtractOptions {
  // The most candidate e-nodes (those reachable from the root that can be
  // part of a finite term) ExtractDag gives the solver. Measured on this
  // project's 2-core machine: a saturated e-graph of 640 candidates takes Z3
  // 5 M steps, one of 1,360 about 11-19 M (2-7 s).
  size_t max_nodes = 1000;
  // Z3's resource limit ("rlimit") for the solve: a count of solver steps,
  // not seconds, so that whether a solve finishes, and so the output, is the
  // same on every machine.
  uint64_t solver_budget = 20'000'000;
};

// The term of least DAG cost in the class of `root` under `model`, in
// `egraph` (clean). Its `cost` is the sum of NodeCost over its term nodes.
// Where several terms cost the least and the greedy extractor's term is one
// of them, that term is returned, so that ties are broken as documented
// there rather than by the solver.
//
// The problem given to Z3: a Boolean per candidate e-node (chosen) and per
// e-class (needed); the root's class is needed, a needed class chooses one
// of its e-nodes, a chosen e-node needs its children's classes; integer
// ranks forbid cycles, a chosen e-node being ranked above its children's
// classes (only within a strongly connected component of the classes,
// where cycles can be); the objective, as weighted soft constraints
// (MaxSAT), is the sum of the chosen e-nodes' costs.
//
// Errors: FailedPrecondition for an unclean e-graph; NotFound if the class
// has no finite term; InvalidArgument for a model that returns NaN, a
// negative node cost, or is not monotone; ResourceExhausted when the
// candidates exceed `max_nodes` or the solver exhausts its budget (use the
// greedy extractor instead); Internal if Z3 fails.
absl::StatusOr<Extraction> ExtractDag(const EGraph& egraph, ClassId root,
                                      const AdditiveCostModel& model,
                                      const DagExtractOptions& options = {});

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_EXTRACT_DAG_H_
