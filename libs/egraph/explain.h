// The explanation forest (egg's explain.rs idea, POPL'21 follow-up "Proof
// producing congruence closure"): every id the e-graph hands out is a term
// (its op, payload and the ids it was built from, unchanged by rebuilding);
// every union adds one edge between the two ids it was given, labelled with
// its justification, re-rooting one tree so the forest stays a forest whose
// trees are the e-classes. Explaining a = b walks the tree path between them:
// a reason edge is one rewrite step; a congruence edge f(a..) = f(b..) is
// explained by the paths between the children, lifted into the context.
// Congruence edges are only ever added between ids whose children were
// already connected, so a child path only uses older edges and explaining
// terminates.
//
// Internal to the e-graph: users call EGraph::Explain.
#ifndef TESSEL_LIBS_EGRAPH_EXPLAIN_H_
#define TESSEL_LIBS_EGRAPH_EXPLAIN_H_

#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/egraph/big_vector.h"
#include "libs/egraph/egraph.h"
#include "libs/egraph/hashcons_table.h"

namespace tessel::egraph {

class Explainer {
 public:
  // Proofs longer than this are refused rather than built (they grow with
  // nested congruences; saturate prints them, so they must stay readable).
  static constexpr size_t kMaxSteps = 100'000;
  // Congruences nest as deep as the terms; deeper ones are refused rather
  // than risking the stack.
  static constexpr size_t kMaxDepth = 10'000;

  // The id of exactly this term (same op, payload and child ids), if any;
  // if none, reserves `next` for it (one probe for both), and the caller
  // must record `next` with AddId before anything else.
  std::optional<NodeId> FindExactOrReserve(OpId op, PayloadId payload,
                                           absl::Span<const ClassId> children,
                                           NodeId next);
  // Records id `id` (the next id, reserved by FindExactOrReserve) with the
  // ids it was built from.
  void AddId(NodeId id, OpId op, PayloadId payload,
             absl::Span<const ClassId> children);
  // Records the union of the trees of `a` and `b`.
  void Union(NodeId a, NodeId b, Justification why);

  // The rewrite chain from term `a` to term `b` (same class).
  absl::StatusOr<std::vector<ExplanationStep>> Explain(const EGraph& g,
                                                       NodeId a,
                                                       NodeId b) const;

  // The term an id stands for.
  Term TermOf(NodeId id) const;

 private:
  struct IdRec {
    OpId op;
    PayloadId payload;
    uint32_t first_child;
    uint32_t arity;
  };
  struct Edge {
    NodeId parent;        // the other end, towards the root (self: root)
    Justification why;    // of the union that added the edge
    bool forward = true;  // the justification rewrote this id into parent
  };
  struct Key {
    OpId op;
    PayloadId payload;
    absl::Span<const ClassId> children;
  };
  class Prover;

  Key KeyOf(NodeId id) const;
  absl::Span<const ClassId> Children(NodeId id) const {
    return {children_.data() + ids_[id].first_child, ids_[id].arity};
  }
  void Reroot(NodeId id);

  BigVector<IdRec> ids_;
  BigVector<ClassId> children_;
  BigVector<Edge> edges_;
  HashconsTable exact_;  // every id, by its exact term
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_EXPLAIN_H_
