// The e-graph: hash-consed e-nodes over a union-find of e-classes, with
// egg's deferred congruence repair (Rebuild), e-class analyses and, when
// enabled, an explanation forest that records why every two classes were
// merged.
//
// Storage is flat: an e-node is a 24-byte record (op, payload, up to two
// children inline, more in a shared pool, two stamps); the hash-cons table
// holds node ids with some bits of their hashes (hashcons_table.h); every class
// keeps the ids of its e-nodes and of its parents, a 64-bit summary of its ops
// and, when big, a directory of its ops. Between Rebuild calls (while rules are
// applied) children may be stale and class node lists unsorted; after Rebuild
// every child is canonical, every class's node list is sorted by (op, payload,
// arity, children) and the per-op indexes are exact. Searching requires a clean
// (rebuilt) e-graph.
#ifndef TESSEL_LIBS_EGRAPH_EGRAPH_H_
#define TESSEL_LIBS_EGRAPH_EGRAPH_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/egraph/analysis.h"
#include "libs/egraph/big_vector.h"
#include "libs/egraph/hashcons_table.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/mapped_blocks.h"
#include "libs/egraph/symbols.h"
#include "libs/egraph/term.h"

namespace tessel::egraph {

class Explainer;
struct ExplanationStep;

// Why two classes are equal: a named reason (a rule, an analysis, the
// caller) or congruence (the e-graph found two e-nodes with equal children).
struct Justification {
  enum class Kind : uint8_t { kReason, kCongruence };
  Kind kind = Kind::kReason;
  ReasonId reason = 0;  // for kReason; 0 is "given" (a caller's union)

  static Justification Given() { return {}; }
  static Justification Because(ReasonId r) { return {Kind::kReason, r}; }
  static Justification Congruence() { return {Kind::kCongruence, 0}; }
};

class EGraph {
 public:
  // The tables outlive the e-graph; payloads are interned by appliers and
  // analyses while rules run.
  EGraph(const OpTable* ops, PayloadTable* payloads);
  ~EGraph();
  EGraph(EGraph&&);
  EGraph& operator=(EGraph&&);

  const OpTable& ops() const { return *ops_; }
  // A number no other e-graph of the process has (moves keep it), for
  // caches of class ids that must not be read against another e-graph.
  uint64_t serial() const { return serial_; }
  PayloadTable& payloads() const { return *payloads_; }

  // Attaches an analysis (not owned); only before the first Add.
  void AddAnalysis(Analysis* analysis);
  absl::Span<Analysis* const> analyses() const { return analyses_; }

  // Turns on the explanation forest (costs memory and time); only before the
  // first Add. See Explain below.
  void EnableExplanations();
  bool explanations_enabled() const { return explainer_ != nullptr; }

  // --- Building -----------------------------------------------------------

  // Adds an e-node (children are any ids of their classes) and returns the
  // canonical id of its class: the existing one if an equal e-node exists.
  ClassId Add(OpId op, PayloadId payload,
              absl::Span<const ClassId> children = {});
  // Adds every node of `term`; returns the class of its root.
  ClassId AddTerm(const Term& term);

  // The class of an e-node / a term if the e-graph has it.
  std::optional<ClassId> Lookup(OpId op, PayloadId payload,
                                absl::Span<const ClassId> children) const;
  std::optional<ClassId> LookupTerm(const Term& term) const;
  // The hash-consed e-node equal to this one (children are canonicalized
  // first), whether or not it is in a class.
  std::optional<NodeId> LookupNode(OpId op, PayloadId payload,
                                   absl::Span<const ClassId> children) const;

  // The canonical id of `id`'s class (union-find with path halving).
  ClassId Find(ClassId id) const;

  // Merges the classes of `a` and `b`; returns false if they were already
  // one. Congruence is repaired by the next Rebuild. With explanations on,
  // `a` and `b` should be the ids of the two terms the reason equates (an
  // applier passes the matched lhs instance, see rewrite.h).
  bool Union(ClassId a, ClassId b, Justification why = Justification::Given());

  // Restores the invariants (congruence closure, analyses, canonical sorted
  // node lists, per-op indexes); returns the number of unions it made.
  size_t Rebuild();
  bool clean() const {
    return pending_.empty() && analysis_pending_.empty() && dirty_.empty();
  }

  // Checks the invariants of a rebuilt e-graph (for tests and debugging):
  // canonical children, a hash-cons table with exactly the hash-consed
  // e-nodes and no two equal ones, every class's nodes sorted and in it,
  // counts and per-op indexes exact, congruence closed.
  absl::Status Verify() const;

  // Removes from class `id` the e-nodes for which `remove` is true (egg's
  // pruning idiom in analyses: a constant class keeps only its leaves). The
  // e-nodes stay hash-consed, so adding one again finds this class, but they
  // are no longer matched, extracted or counted.
  void RemoveNodesIf(ClassId id, absl::FunctionRef<bool(NodeId)> remove);

  // --- Sizes --------------------------------------------------------------

  size_t NumClasses() const { return num_classes_; }
  // E-nodes in classes (egg's total_number_of_nodes; pruned ones excluded).
  size_t NumNodes() const { return num_class_nodes_; }
  // Entries of the hash-cons table (pruned e-nodes included); the runner's
  // node limit counts these, as egg's total_size does.
  size_t HashconsSize() const;
  // Ids handed out so far (e-nodes, and explanation occurrences).
  size_t NumIds() const { return store_.size(); }

  // --- Reading (after Rebuild) --------------------------------------------

  // The canonical class ids, ascending.
  absl::Span<const ClassId> Classes() const { return class_list_; }
  // The e-nodes of canonical class `id`, sorted by (op, payload, arity,
  // children) after Rebuild.
  absl::Span<const NodeId> Nodes(ClassId id) const {
    return classes_[id].nodes;
  }
  // E-nodes having a child in canonical class `id`, as recorded when they
  // were added or merged in; may repeat a node and include pruned or
  // congruence-removed ones (check InClass).
  absl::Span<const NodeId> Parents(ClassId id) const {
    return classes_[id].parents;
  }
  // The e-nodes with op `op`, of every arity, that are in a class.
  absl::Span<const NodeId> NodesWithOp(OpId op) const;
  // The e-nodes of canonical class `id` with op `op` (a run of Nodes(id)).
  absl::Span<const NodeId> NodesWithOpIn(ClassId id, OpId op) const;
  // A summary of the ops of canonical class `id`: bit OpBit(op) is set for
  // every op of its e-nodes (and maybe others, until the next Rebuild). The
  // matcher rejects classes without the op it looks for from this alone.
  uint64_t OpMask(ClassId id) const { return op_masks_[id]; }
  static uint64_t OpBit(OpId op) { return uint64_t{1} << (op & 63); }

  ENodeRef Node(NodeId n) const { return store_.Get(n); }
  // Whether e-node `n` is in a class (not pruned, not a congruent duplicate,
  // not an explanation occurrence).
  bool InClass(NodeId n) const { return state_[n] == NodeState::kInClass; }

  // --- Epochs, for searches that skip matches applied before -------------

  // Every e-node carries the epoch in which it was created, had its
  // children changed, or moved to another class (its stamp). A match whose
  // e-nodes all have stamps older than epoch E existed in that form at E.
  uint32_t epoch() const { return epoch_; }
  void AdvanceEpoch() { ++epoch_; }
  uint32_t Stamp(NodeId n) const { return store_.Stamp(n); }
  // The epoch in which e-node `n` was created or had its children changed,
  // not counting moves. For the e-node at the root of a match this is
  // enough: moving it only renames the matched class, and a match applied
  // before (its right side unioned with the old class) changes nothing when
  // applied again under the new name. Merges therefore do not make every
  // match rooted in the absorbed class new.
  uint32_t RootStamp(NodeId n) const { return store_.RootStamp(n); }

  // --- Reasons and explanations ---------------------------------------------

  // Interns a reason name ("given" is 0, "congruence" names congruence).
  ReasonId InternReason(absl::string_view name);
  absl::string_view ReasonName(ReasonId id) const { return reasons_[id]; }

  // With explanations on: the chain of rewrites from `from` to `to`, two terms
  // equal in the e-graph (both are added to it if needed; extracted terms are
  // in it already). The first step is `from` with an empty reason; each
  // further step names the rule (or analysis) applied, its direction, and the
  // whole term after it.
  absl::StatusOr<std::vector<ExplanationStep>> Explain(const Term& from,
                                                       const Term& to);

  // --- For appliers and conditions that read e-nodes ------------------------

  // Adds an e-node and returns the id of that exact e-node: with explanations
  // on, a fresh occurrence id congruent to an existing equal e-node (so that
  // explanations name the terms a rule really rewrote); otherwise the same as
  // Add. Appliers instantiate patterns through this (pattern.h).
  ClassId AddOccurrence(OpId op, PayloadId payload,
                        absl::Span<const ClassId> children);

 private:
  enum class NodeState : uint8_t {
    kInClass,  // hash-consed and in its class's node list
    kPruned,   // hash-consed, removed from its class by RemoveNodesIf
    kDead,     // congruent to another e-node, or an explanation occurrence
  };
  // The node store: 24 bytes per e-node with up to two children inline (most
  // e-nodes), more in a shared pool, so that reading an e-node while
  // matching or hash-consing touches one cache line.
  class Store {
   public:
    NodeId Append(OpId op, PayloadId payload,
                  absl::Span<const ClassId> children, uint32_t stamp);
    ENodeRef Get(NodeId n) const {
      const Rec& r = recs_[n];
      if (r.arity <= kInline) return {r.op, r.payload, {r.kids, r.arity}};
      return {r.op, r.payload, {pool_.data() + r.kids[0], r.kids[1]}};
    }
    absl::Span<ClassId> MutableChildren(NodeId n) {
      Rec& r = recs_[n];
      if (r.arity <= kInline) return {r.kids, r.arity};
      return {pool_.data() + r.kids[0], r.kids[1]};
    }
    OpId Op(NodeId n) const { return recs_[n].op; }
    uint32_t Stamp(NodeId n) const { return recs_[n].stamp; }
    uint32_t RootStamp(NodeId n) const { return recs_[n].made; }
    // A move to another class.
    void SetStamp(NodeId n, uint32_t stamp) { recs_[n].stamp = stamp; }
    // New children.
    void SetStamps(NodeId n, uint32_t stamp) {
      recs_[n].stamp = stamp;
      recs_[n].made = stamp;
    }
    size_t size() const { return recs_.size(); }
    bool empty() const { return recs_.empty(); }

   private:
    static constexpr uint32_t kInline = 2;
    struct Rec {
      uint32_t op : 24;
      uint32_t arity : 8;  // 0..kInline, or kInline + 1: children in pool_
      PayloadId payload;
      ClassId kids[kInline];  // the children, or (pool offset, arity)
      uint32_t stamp;         // see EGraph::Stamp
      uint32_t made;          // see EGraph::RootStamp
    };
    BigVector<Rec> recs_;
    BigVector<ClassId> pool_;
  };
  struct NodeKey {
    OpId op;
    PayloadId payload;
    absl::Span<const ClassId> children;
  };
  // Classes with more e-nodes than this get an op directory, so that the
  // matcher finds the e-nodes of an op in a big class without a search.
  static constexpr size_t kOpDirectoryMin = 8;
  struct ClassRec {
    absl::InlinedVector<NodeId, 2> nodes;
    absl::InlinedVector<NodeId, 2> parents;
    // For big classes: where each op's run of `nodes` starts, by op.
    std::unique_ptr<std::vector<std::pair<OpId, uint32_t>>> op_directory;
  };

  NodeKey KeyOf(NodeId n) const;
  static uint64_t Hash(const NodeKey& key) {
    return HashENode(key.op, key.payload, key.children);
  }
  // Whether e-node `n` is `key`.
  bool Is(NodeId n, const NodeKey& key) const;
  // The hash-consed e-node equal to `key` (canonical children); if there is
  // none, puts the id of the next new e-node in the table (one probe for
  // both) and the caller must make it with NewNode.
  std::optional<NodeId> FindOrReserve(const NodeKey& key);
  // The order of class node lists: (op, payload, arity, children).
  bool NodeLess(NodeId a, NodeId b) const;
  // That order up to the third child, as two numbers.
  struct SortKey {
    unsigned __int128 high;  // op, payload, arity, children 0 and 1
    ClassId low;             // child 2
  };
  SortKey SortKeyOf(NodeId n) const;
  void SortNodes(absl::InlinedVector<NodeId, 2>& nodes);
  // Appends an e-node with canonical children (`original`: the ids the
  // caller gave, for explanations) as a new class. The caller has put its
  // id (the next one) in the hash-cons table.
  NodeId NewNode(OpId op, PayloadId payload,
                 absl::Span<const ClassId> canonical,
                 absl::Span<const ClassId> original);
  // Appends an id record that is not an e-node (explanation occurrences).
  void AppendIdSlot();
  void QueueAnalysis(absl::Span<const NodeId> parents);
  void MarkDirty(ClassId id);
  void ModifyAll(ClassId id);
  void RepairNode(NodeId n, size_t* unions);
  void RebuildClasses();

  const OpTable* ops_;
  PayloadTable* payloads_;
  std::vector<Analysis*> analyses_;

  Store store_;
  BigVector<NodeState> state_;
  mutable BigVector<ClassId> parent_;  // union-find
  SegmentedVector<ClassRec> classes_;  // meaningful for canonical ids
  BigVector<uint64_t> op_masks_;       // OpMask, by canonical id
  HashconsTable memo_;
  std::vector<BigVector<NodeId>> op_nodes_;  // by op; compacted in Rebuild
  std::vector<uint32_t> op_stale_;           // removed entries per op
  BigVector<ClassId> class_list_;            // canonical ids after Rebuild

  BigVector<NodeId> pending_;             // parents to re-canonicalize
  std::vector<NodeId> analysis_pending_;  // parents to re-analyse
  std::vector<ClassId> dirty_;            // classes whose node list changed
  std::vector<bool> is_dirty_;
  std::vector<bool> analysis_queued_;  // in analysis_pending_
  std::vector<std::pair<SortKey, NodeId>> sort_scratch_;  // for SortNodes

  uint64_t serial_;
  uint32_t epoch_ = 1;
  size_t num_classes_ = 0;
  size_t num_class_nodes_ = 0;

  std::vector<std::string> reasons_;
  std::unique_ptr<Explainer> explainer_;
};

// One step of an explanation: the reason (a rule name, an analysis, "given"),
// whether the rule was used right to left, and the whole term after the step.
struct ExplanationStep {
  std::string reason;
  bool backward = false;
  Term term;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_EGRAPH_H_
