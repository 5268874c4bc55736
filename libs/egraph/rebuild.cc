// Rebuilding (egg's deferred congruence repair) and the invariants it
// restores.
#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/egraph/egraph.h"

namespace tessel::egraph {

// --- Rebuilding --------------------------------------------------------------

// Re-canonicalizes the children of parent `n`; an e-node that becomes equal
// to another one means their classes are congruent.
void EGraph::RepairNode(NodeId n, size_t* unions) {
  if (state_[n] == NodeState::kDead) return;
  absl::Span<ClassId> kids = store_.MutableChildren(n);
  bool stale = false;
  for (ClassId k : kids) stale |= Find(k) != k;
  if (!stale) return;
  memo_.Erase(Hash(KeyOf(n)), n);  // hashed by its current (stale) children
  for (ClassId& k : kids) k = Find(k);
  store_.SetStamps(n, epoch_);
  MarkDirty(Find(n));
  const NodeKey key = KeyOf(n);
  const uint64_t hash = Hash(key);
  auto equal = [&](NodeId m) { return Is(m, key); };
  std::optional<NodeId> existing = memo_.FindOrInsert(hash, n, equal);
  if (!existing) return;
  // Keep the e-node that is in a class (a pruned one stays only hash-consed).
  NodeId keep = *existing;
  NodeId drop = n;
  if (state_[keep] != NodeState::kInClass &&
      state_[drop] == NodeState::kInClass) {
    std::swap(keep, drop);
    memo_.Erase(hash, drop);
    memo_.FindOrInsert(hash, keep, equal);
  }
  if (state_[drop] == NodeState::kInClass) {
    --num_class_nodes_;
    ++op_stale_[store_.Op(drop)];
  }
  state_[drop] = NodeState::kDead;
  MarkDirty(Find(drop));
  if (Union(keep, drop, Justification::Congruence())) ++*unions;
}

EGraph::SortKey EGraph::SortKeyOf(NodeId n) const {
  ENodeRef r = store_.Get(n);
  const size_t arity = r.children.size();
  auto child = [&](size_t i) -> ClassId {
    return i < arity ? r.children[i] : 0;
  };
  unsigned __int128 high = r.op;
  high = high << 32 | r.payload;
  high = high << 8 | std::min<size_t>(arity, 255);
  high = high << 32 | child(0);
  high = high << 32 | child(1);
  return {high, child(2)};
}

void EGraph::SortNodes(absl::InlinedVector<NodeId, 2>& nodes) {
  if (nodes.size() <= 16) {
    std::sort(nodes.begin(), nodes.end(),
              [this](NodeId a, NodeId b) { return NodeLess(a, b); });
    return;
  }
  // Big classes: sort (key, id) pairs, so that comparing reads no e-node;
  // keys hold the whole order up to the third child.
  sort_scratch_.clear();
  for (NodeId n : nodes) sort_scratch_.push_back({SortKeyOf(n), n});
  auto less = [this](const auto& x, const auto& y) {
    if (x.first.high != y.first.high) return x.first.high < y.first.high;
    if (x.first.low != y.first.low) return x.first.low < y.first.low;
    return NodeLess(x.second, y.second);
  };
  // A dirty class's list is mostly still in the order of its last sort,
  // with the e-nodes of the classes it absorbed appended: sort from the
  // first e-node out of order on and merge (on egg's lambda_fib this
  // halved the rebuild time against sorting the whole list).
  auto sorted_end =
      std::is_sorted_until(sort_scratch_.begin(), sort_scratch_.end(), less);
  if (sorted_end == sort_scratch_.end()) return;
  std::sort(sorted_end, sort_scratch_.end(), less);
  std::inplace_merge(sort_scratch_.begin(), sorted_end, sort_scratch_.end(),
                     less);
  for (size_t i = 0; i < nodes.size(); ++i) nodes[i] = sort_scratch_[i].second;
}

bool EGraph::NodeLess(NodeId a, NodeId b) const {
  NodeKey x = KeyOf(a);
  NodeKey y = KeyOf(b);
  if (x.op != y.op) return x.op < y.op;
  if (x.payload != y.payload) return x.payload < y.payload;
  if (x.children.size() != y.children.size()) {
    return x.children.size() < y.children.size();
  }
  return std::lexicographical_compare(x.children.begin(), x.children.end(),
                                      y.children.begin(), y.children.end());
}

void EGraph::RebuildClasses() {
  for (ClassId c : dirty_) {
    is_dirty_[c] = false;
    if (Find(c) != c) continue;  // merged: its nodes moved to a dirty root
    auto& nodes = classes_[c].nodes;
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(),
                               [this](NodeId n) {
                                 return state_[n] != NodeState::kInClass;
                               }),
                nodes.end());
    SortNodes(nodes);
    uint64_t mask = 0;
    for (NodeId n : nodes) mask |= OpBit(store_.Op(n));
    op_masks_[c] = mask;
    auto& directory = classes_[c].op_directory;
    if (nodes.size() <= kOpDirectoryMin) {
      directory.reset();
      continue;
    }
    if (!directory)
      directory = std::make_unique<std::vector<std::pair<OpId, uint32_t>>>();
    directory->clear();
    for (uint32_t i = 0; i < nodes.size(); ++i) {
      OpId op = store_.Op(nodes[i]);
      if (directory->empty() || directory->back().first != op) {
        directory->push_back({op, i});
      }
    }
  }
  dirty_.clear();
  for (OpId op = 0; op < op_nodes_.size(); ++op) {
    if (op_stale_[op] == 0) continue;
    auto& list = op_nodes_[op];
    list.erase(std::remove_if(list.begin(), list.end(),
                              [this](NodeId n) {
                                return state_[n] != NodeState::kInClass;
                              }),
               list.end());
    op_stale_[op] = 0;
  }
  if (class_list_.size() != num_classes_) {
    class_list_.erase(
        std::remove_if(class_list_.begin(), class_list_.end(),
                       [this](ClassId c) { return parent_[c] != c; }),
        class_list_.end());
  }
  // Full path compression, so that the searches that follow find a class in
  // one step.
  for (ClassId id = 0; id < parent_.size(); ++id) parent_[id] = Find(id);
}

size_t EGraph::Rebuild() {
  size_t unions = 0;
  while (!pending_.empty() || !analysis_pending_.empty()) {
    while (!pending_.empty()) {
      NodeId n = pending_.back();
      pending_.pop_back();
      RepairNode(n, &unions);
    }
    while (!analysis_pending_.empty()) {
      NodeId n = analysis_pending_.back();
      analysis_pending_.pop_back();
      analysis_queued_[n] = false;
      ClassId c = Find(n);
      bool changed = false;
      for (Analysis* a : analyses_) changed |= a->Remake(*this, c, Node(n));
      if (!changed) continue;
      QueueAnalysis(classes_[c].parents);
      ModifyAll(c);
    }
  }
  RebuildClasses();
  return unions;
}

// --- Verification ------------------------------------------------------------

absl::Status EGraph::Verify() const {
  if (!clean()) return absl::FailedPreconditionError("e-graph not rebuilt");
  auto fail = [](auto... parts) {
    return absl::InternalError(absl::StrCat(parts...));
  };
  size_t classes = 0, in_class = 0, hashconsed = 0;
  for (NodeId id = 0; id < state_.size(); ++id) {
    if (Find(id) == id) {
      ++classes;
      for (NodeId n : classes_[id].nodes) {
        if (state_[n] != NodeState::kInClass) {
          return fail("class ", id, " lists removed node ", n);
        }
        if (Find(n) != id) return fail("node ", n, " listed in class ", id);
      }
      for (size_t i = 1; i < classes_[id].nodes.size(); ++i) {
        if (!NodeLess(classes_[id].nodes[i - 1], classes_[id].nodes[i])) {
          return fail("class ", id, " not sorted");
        }
      }
      in_class += classes_[id].nodes.size();
    }
    if (state_[id] == NodeState::kDead) {
      if (memo_.Find(Hash(KeyOf(id)), [id](NodeId n) { return n == id; })) {
        return fail("dead node ", id, " hash-consed");
      }
      continue;
    }
    ++hashconsed;
    for (ClassId c : KeyOf(id).children) {
      if (Find(c) != c) return fail("node ", id, " has a stale child");
    }
    const NodeKey key = KeyOf(id);
    if (memo_.Find(Hash(key), [&](NodeId n) { return Is(n, key); }) != id) {
      return fail("node ", id, " missing from the hash-cons table");
    }
  }
  if (classes != num_classes_ || classes != class_list_.size()) {
    return fail("class count ", num_classes_, " list ", class_list_.size(),
                " actual ", classes);
  }
  if (in_class != num_class_nodes_) {
    return fail("node count ", num_class_nodes_, " actual ", in_class);
  }
  if (hashconsed != memo_.size()) {
    return fail("hash-cons size ", memo_.size(), " actual ", hashconsed);
  }
  size_t indexed = 0;
  for (const auto& list : op_nodes_) {
    for (NodeId n : list) {
      if (state_[n] != NodeState::kInClass) {
        return fail("op index lists removed node ", n);
      }
    }
    indexed += list.size();
  }
  if (indexed != in_class) return fail("op index size ", indexed);
  return absl::OkStatus();
}

}  // namespace tessel::egraph
