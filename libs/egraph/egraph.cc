#include "libs/egraph/egraph.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <utility>

#include "absl/container/inlined_vector.h"
#include "absl/status/status.h"
#include "libs/egraph/explain.h"

namespace tessel::egraph {

namespace {

using Children = absl::InlinedVector<ClassId, 8>;

uint64_t NextSerial() {
  static std::atomic<uint64_t> next{1};
  return next++;
}

}  // namespace

// --- Node store and hash-cons keys -----------------------------------------

NodeId EGraph::Store::Append(OpId op, PayloadId payload,
                             absl::Span<const ClassId> children,
                             uint32_t stamp) {
  Rec r;
  r.op = op;
  r.payload = payload;
  r.stamp = stamp;
  r.made = stamp;
  if (children.size() <= kInline) {
    r.arity = children.size();
    for (size_t i = 0; i < children.size(); ++i) r.kids[i] = children[i];
  } else {
    r.arity = kInline + 1;
    r.kids[0] = pool_.size();
    r.kids[1] = children.size();
    for (ClassId c : children) pool_.push_back(c);
  }
  recs_.push_back(r);
  return recs_.size() - 1;
}

EGraph::NodeKey EGraph::KeyOf(NodeId n) const {
  ENodeRef r = store_.Get(n);
  return {r.op, r.payload, r.children};
}

bool EGraph::Is(NodeId n, const NodeKey& key) const {
  ENodeRef x = store_.Get(n);
  if (x.op != key.op || x.payload != key.payload ||
      x.children.size() != key.children.size()) {
    return false;
  }
  for (size_t i = 0; i < key.children.size(); ++i) {
    if (x.children[i] != key.children[i]) return false;
  }
  return true;
}

// --- Construction ------------------------------------------------------------

EGraph::EGraph(const OpTable* ops, PayloadTable* payloads)
    : ops_(ops),
      payloads_(payloads),
      serial_(NextSerial()),
      reasons_({"given", "congruence"}) {}

EGraph::~EGraph() = default;
EGraph::EGraph(EGraph&&) = default;
EGraph& EGraph::operator=(EGraph&&) = default;

void EGraph::AddAnalysis(Analysis* analysis) {
  assert(store_.empty() && "attach analyses before adding e-nodes");
  analyses_.push_back(analysis);
}

void EGraph::EnableExplanations() {
  assert(store_.empty() && "enable explanations before adding e-nodes");
  if (!explainer_) explainer_ = std::make_unique<Explainer>();
}

ReasonId EGraph::InternReason(absl::string_view name) {
  for (size_t i = 0; i < reasons_.size(); ++i) {
    if (reasons_[i] == name) return i;
  }
  reasons_.emplace_back(name);
  return reasons_.size() - 1;
}

size_t EGraph::HashconsSize() const { return memo_.size(); }

absl::Span<const NodeId> EGraph::NodesWithOp(OpId op) const {
  if (op >= op_nodes_.size()) return {};
  return op_nodes_[op];
}

absl::Span<const NodeId> EGraph::NodesWithOpIn(ClassId id, OpId op) const {
  const ClassRec& c = classes_[id];
  absl::Span<const NodeId> nodes = c.nodes;
  if (c.op_directory) {
    const auto& dir = *c.op_directory;
    for (size_t i = 0; i < dir.size(); ++i) {
      if (dir[i].first != op) continue;
      uint32_t end = i + 1 < dir.size() ? dir[i + 1].second : nodes.size();
      return nodes.subspan(dir[i].second, end - dir[i].second);
    }
    return {};
  }
  size_t begin = 0;
  while (begin < nodes.size() && store_.Op(nodes[begin]) < op) ++begin;
  size_t end = begin;
  while (end < nodes.size() && store_.Op(nodes[end]) == op) ++end;
  return nodes.subspan(begin, end - begin);
}

// --- Adding ------------------------------------------------------------------

ClassId EGraph::Find(ClassId id) const {
  while (parent_[id] != id) {
    parent_[id] = parent_[parent_[id]];
    id = parent_[id];
  }
  return id;
}

NodeId EGraph::NewNode(OpId op, PayloadId payload,
                       absl::Span<const ClassId> canonical,
                       absl::Span<const ClassId> original) {
  NodeId n = store_.Append(op, payload, canonical, epoch_);
  AppendIdSlot();
  classes_[n].nodes.push_back(n);
  op_masks_[n] = OpBit(op);
  for (ClassId c : canonical) classes_[c].parents.push_back(n);
  if (op >= op_nodes_.size()) {
    op_nodes_.resize(op + 1);
    op_stale_.resize(op + 1, 0);
  }
  op_nodes_[op].push_back(n);
  class_list_.push_back(n);
  ++num_classes_;
  ++num_class_nodes_;
  if (explainer_) explainer_->AddId(n, op, payload, original);
  for (Analysis* a : analyses_) a->MakeClass(*this, n, Node(n));
  ModifyAll(n);
  return n;
}

void EGraph::AppendIdSlot() {
  NodeId id = state_.size();
  state_.push_back(NodeState::kInClass);
  parent_.push_back(id);
  classes_.emplace_back();
  op_masks_.push_back(0);
  is_dirty_.push_back(false);
  analysis_queued_.push_back(false);
}

ClassId EGraph::Add(OpId op, PayloadId payload,
                    absl::Span<const ClassId> children) {
  if (explainer_) return Find(AddOccurrence(op, payload, children));
  Children canonical(children.begin(), children.end());
  for (ClassId& c : canonical) c = Find(c);
  if (std::optional<NodeId> existing =
          FindOrReserve(NodeKey{op, payload, canonical})) {
    return Find(*existing);
  }
  return Find(NewNode(op, payload, canonical, canonical));
}

std::optional<NodeId> EGraph::FindOrReserve(const NodeKey& key) {
  // The table holds the id the new e-node will have before the e-node is
  // stored; nothing reads that id in between.
  return memo_.FindOrInsert(Hash(key), store_.size(),
                            [&](NodeId n) { return Is(n, key); });
}

ClassId EGraph::AddOccurrence(OpId op, PayloadId payload,
                              absl::Span<const ClassId> children) {
  if (!explainer_) return Add(op, payload, children);
  if (std::optional<NodeId> exact = explainer_->FindExactOrReserve(
          op, payload, children, store_.size())) {
    return *exact;
  }
  Children original(children.begin(), children.end());
  Children canonical = original;
  for (ClassId& c : canonical) c = Find(c);
  std::optional<NodeId> found = FindOrReserve(NodeKey{op, payload, canonical});
  if (!found) return NewNode(op, payload, canonical, original);
  // An equal e-node exists: this exact term gets an id of its own in the
  // existing class, linked to that e-node by congruence. It is not an e-node
  // of the class (not hash-consed, no parents), only a term to explain.
  NodeId existing = *found;
  NodeId o = store_.Append(op, payload, original, epoch_);
  AppendIdSlot();
  state_[o] = NodeState::kDead;
  parent_[o] = Find(existing);
  explainer_->AddId(o, op, payload, original);
  explainer_->Union(existing, o, Justification::Congruence());
  return o;
}

ClassId EGraph::AddTerm(const Term& term) {
  std::vector<ClassId> ids(term.size());
  Children kids;
  for (uint32_t i = 0; i < term.size(); ++i) {
    kids.clear();
    for (uint32_t c : term.children(i)) kids.push_back(ids[c]);
    ids[i] = AddOccurrence(term.node(i).op, term.node(i).payload, kids);
  }
  return Find(ids.back());
}

std::optional<NodeId> EGraph::LookupNode(
    OpId op, PayloadId payload, absl::Span<const ClassId> children) const {
  Children canonical(children.begin(), children.end());
  for (ClassId& c : canonical) c = Find(c);
  const NodeKey key{op, payload, canonical};
  return memo_.Find(Hash(key), [&](NodeId n) { return Is(n, key); });
}

std::optional<ClassId> EGraph::Lookup(
    OpId op, PayloadId payload, absl::Span<const ClassId> children) const {
  std::optional<NodeId> n = LookupNode(op, payload, children);
  if (!n) return std::nullopt;
  return Find(*n);
}

std::optional<ClassId> EGraph::LookupTerm(const Term& term) const {
  std::vector<ClassId> ids(term.size());
  Children kids;
  for (uint32_t i = 0; i < term.size(); ++i) {
    kids.clear();
    for (uint32_t c : term.children(i)) kids.push_back(ids[c]);
    std::optional<ClassId> id =
        Lookup(term.node(i).op, term.node(i).payload, kids);
    if (!id) return std::nullopt;
    ids[i] = *id;
  }
  return ids.back();
}

// --- Unions ------------------------------------------------------------------

void EGraph::MarkDirty(ClassId id) {
  if (is_dirty_[id]) return;
  is_dirty_[id] = true;
  dirty_.push_back(id);
}

// egg's UniqueQueue: a parent waits in the queue at most once.
void EGraph::QueueAnalysis(absl::Span<const NodeId> parents) {
  for (NodeId p : parents) {
    if (analysis_queued_[p]) continue;
    analysis_queued_[p] = true;
    analysis_pending_.push_back(p);
  }
}

void EGraph::ModifyAll(ClassId id) {
  for (Analysis* a : analyses_) a->Modify(*this, Find(id));
}

bool EGraph::Union(ClassId a, ClassId b, Justification why) {
  ClassId root = Find(a);
  ClassId other = Find(b);
  if (root == other) return false;
  // As egg: the class with more parents stays the root, so fewer parents
  // need repair.
  if (classes_[root].parents.size() < classes_[other].parents.size()) {
    std::swap(root, other);
  }
  if (explainer_) explainer_->Union(a, b, why);
  parent_[other] = root;
  op_masks_[root] |= op_masks_[other];
  --num_classes_;

  ClassRec absorbed = std::move(classes_[other]);
  classes_[other].nodes.clear();
  classes_[other].nodes.shrink_to_fit();
  classes_[other].parents.clear();
  classes_[other].parents.shrink_to_fit();
  pending_.append(absorbed.parents.begin(), absorbed.parents.end());
  DidMerge merged;
  for (Analysis* an : analyses_)
    merged = merged | an->MergeClasses(root, other);
  ClassRec& kept = classes_[root];
  if (merged.into_changed) QueueAnalysis(kept.parents);
  if (merged.from_changed) QueueAnalysis(absorbed.parents);
  // The absorbed e-nodes are in a new class: matches through them are new.
  for (NodeId n : absorbed.nodes) store_.SetStamp(n, epoch_);
  kept.nodes.insert(kept.nodes.end(), absorbed.nodes.begin(),
                    absorbed.nodes.end());
  kept.parents.insert(kept.parents.end(), absorbed.parents.begin(),
                      absorbed.parents.end());
  MarkDirty(root);
  ModifyAll(root);
  return true;
}

void EGraph::RemoveNodesIf(ClassId id, absl::FunctionRef<bool(NodeId)> remove) {
  ClassId c = Find(id);
  auto& nodes = classes_[c].nodes;
  auto end = std::remove_if(nodes.begin(), nodes.end(), [&](NodeId n) {
    if (state_[n] != NodeState::kInClass || !remove(n)) return false;
    state_[n] = NodeState::kPruned;
    --num_class_nodes_;
    ++op_stale_[store_.Op(n)];
    return true;
  });
  nodes.erase(end, nodes.end());
}

// --- Explanations ------------------------------------------------------------

absl::StatusOr<std::vector<ExplanationStep>> EGraph::Explain(const Term& from,
                                                             const Term& to) {
  if (!explainer_) {
    return absl::FailedPreconditionError("explanations are not enabled");
  }
  if (from.empty() || to.empty()) {
    return absl::InvalidArgumentError("cannot explain an empty term");
  }
  auto add_exact = [this](const Term& term) {
    std::vector<ClassId> ids(term.size());
    Children kids;
    for (uint32_t i = 0; i < term.size(); ++i) {
      kids.clear();
      for (uint32_t c : term.children(i)) kids.push_back(ids[c]);
      ids[i] = AddOccurrence(term.node(i).op, term.node(i).payload, kids);
    }
    return ids.back();
  };
  NodeId a = add_exact(from);
  NodeId b = add_exact(to);
  Rebuild();
  if (Find(a) != Find(b)) {
    return absl::InvalidArgumentError("the two terms are not equal");
  }
  return explainer_->Explain(*this, a, b);
}

}  // namespace tessel::egraph
