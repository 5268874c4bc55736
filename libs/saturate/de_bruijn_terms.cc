#include "libs/saturate/de_bruijn_terms.h"

#include <limits>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"

namespace tessel::saturate {
namespace {

bool IsLam(const TirEncoding& encoding, egraph::OpId op) {
  return encoding.Meaning(op).op == ir::Op::kLam;
}

// Finds, for each class and window of forbidden variables reached, the
// smallest qualifying node. Under `depth` lams of the term being extracted,
// the variables that refer to the `bound` lams around it are %depth ...
// %(depth + bound - 1): the window [lo, hi).
class AvoidingExtractor {
 public:
  AvoidingExtractor(const egraph::EGraph& g, const TirEncoding& encoding)
      : g_(g), encoding_(encoding) {}

  // The size of the smallest qualifying term of `id`, or kNone.
  uint64_t Solve(egraph::ClassId id, int64_t lo, int64_t hi) {
    Key key = KeyOf(id, lo, hi);
    if (auto it = best_.find(key); it != best_.end()) return it->second.size;
    // A term that goes round a cycle back to a class it is inside of is
    // never the smallest; and the window moves with every lam, so cycles
    // are cut by class, whatever the window.
    if (!on_path_.insert(key.id).second) return kNone;
    Choice choice{kNone, egraph::kNoId};
    for (egraph::NodeId n : g_.Nodes(key.id)) {
      uint64_t size = SizeOf(g_.Node(n), key.lo, key.hi);
      if (size < choice.size) choice = {size, n};
    }
    on_path_.erase(key.id);
    best_[key] = choice;
    return choice.size;
  }

  // The term Solve found, added to `term`; returns its root index.
  uint32_t Build(egraph::ClassId id, int64_t lo, int64_t hi,
                 egraph::Term& term) {
    Key key = KeyOf(id, lo, hi);
    egraph::ENodeRef node = g_.Node(best_.at(key).node);
    int64_t shift = IsLam(encoding_, node.op) ? 1 : 0;
    std::vector<uint32_t> children;
    children.reserve(node.children.size());
    for (egraph::ClassId child : node.children) {
      children.push_back(Build(child, key.lo + shift, key.hi + shift, term));
    }
    return term.Add(node.op, node.payload, children);
  }

  static constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

 private:
  struct Key {
    egraph::ClassId id;
    int64_t lo;
    int64_t hi;
    bool operator==(const Key& o) const {
      return id == o.id && lo == o.lo && hi == o.hi;
    }
    template <typename H>
    friend H AbslHashValue(H h, const Key& k) {
      return H::combine(std::move(h), k.id, k.lo, k.hi);
    }
  };
  struct Choice {
    uint64_t size;
    egraph::NodeId node;
  };

  // An empty window forbids nothing, wherever it lies.
  Key KeyOf(egraph::ClassId id, int64_t lo, int64_t hi) const {
    if (lo == hi) return {g_.Find(id), 0, 0};
    return {g_.Find(id), lo, hi};
  }

  uint64_t SizeOf(const egraph::ENodeRef& node, int64_t lo, int64_t hi) {
    if (node.op == encoding_.var_op()) {
      int64_t k = encoding_.VarIndex(node.payload);
      return k < lo || k >= hi ? 1 : kNone;
    }
    int64_t shift = IsLam(encoding_, node.op) ? 1 : 0;
    uint64_t size = 1;
    for (egraph::ClassId child : node.children) {
      uint64_t child_size = Solve(child, lo + shift, hi + shift);
      if (child_size >= kNone - size) return kNone;
      size += child_size;
    }
    return size;
  }

  const egraph::EGraph& g_;
  const TirEncoding& encoding_;
  absl::flat_hash_map<Key, Choice> best_;
  absl::flat_hash_set<egraph::ClassId> on_path_;
};

// Copies the subterm at `i` of `from` into `to`, rewriting each variable
// %K found under `depth` lams of the copy with `var(K, depth)`, which adds
// the replacement to `to` and returns its index.
template <typename VarFn>
uint32_t Rewrite(const egraph::Term& from, uint32_t i, int64_t depth,
                 const TirEncoding& encoding, egraph::Term& to, VarFn& var) {
  const egraph::Term::Node& node = from.node(i);
  if (node.op == encoding.var_op()) {
    return var(encoding.VarIndex(node.payload), depth);
  }
  int64_t inner = IsLam(encoding, node.op) ? depth + 1 : depth;
  std::vector<uint32_t> children;
  children.reserve(node.arity);
  for (uint32_t child : from.children(i)) {
    children.push_back(Rewrite(from, child, inner, encoding, to, var));
  }
  return to.Add(node.op, node.payload, children);
}

// Copies the whole of `from` into `to`; returns the root's index there.
uint32_t Copy(const egraph::Term& from, egraph::Term& to) {
  std::vector<uint32_t> index(from.size());
  for (uint32_t i = 0; i < from.size(); ++i) {
    std::vector<uint32_t> children;
    for (uint32_t child : from.children(i)) children.push_back(index[child]);
    index[i] = to.Add(from.node(i).op, from.node(i).payload, children);
  }
  return index[from.root()];
}

}  // namespace

std::optional<egraph::Term> ExtractAvoiding(const egraph::EGraph& g,
                                            const TirEncoding& encoding,
                                            egraph::ClassId id, int64_t bound) {
  AvoidingExtractor extractor(g, encoding);
  if (extractor.Solve(id, 0, bound) == AvoidingExtractor::kNone) {
    return std::nullopt;
  }
  egraph::Term term;
  extractor.Build(id, 0, bound, term);
  return term;
}

const std::optional<egraph::Term>& AvoidingTerms::Get(
    const egraph::EGraph& g, const TirEncoding& encoding, egraph::ClassId id,
    int64_t bound) {
  if (g.serial() != graph_ || g.epoch() != epoch_) {
    terms_.clear();
    graph_ = g.serial();
    epoch_ = g.epoch();
  }
  auto [it, inserted] = terms_.try_emplace({g.Find(id), bound});
  if (inserted) it->second = ExtractAvoiding(g, encoding, id, bound);
  return it->second;
}

egraph::Term ShiftTerm(const egraph::Term& term, TirEncoding& encoding,
                       int64_t by, int64_t cutoff) {
  egraph::Term shifted;
  auto var = [&](int64_t k, int64_t depth) {
    int64_t moved = k >= cutoff + depth ? k + by : k;
    return shifted.Add(encoding.var_op(), encoding.payloads().Int(moved));
  };
  Rewrite(term, term.root(), 0, encoding, shifted, var);
  return shifted;
}

egraph::Term SubstituteTerm(const egraph::Term& body, const egraph::Term& value,
                            TirEncoding& encoding) {
  egraph::Term result;
  auto var = [&](int64_t k, int64_t depth) -> uint32_t {
    if (k < depth) {
      return result.Add(encoding.var_op(), encoding.payloads().Int(k));
    }
    if (k == depth) {
      egraph::Term moved = ShiftTerm(value, encoding, depth);
      return Copy(moved, result);
    }
    return result.Add(encoding.var_op(), encoding.payloads().Int(k - 1));
  };
  Rewrite(body, body.root(), 0, encoding, result, var);
  return result;
}

}  // namespace tessel::saturate
