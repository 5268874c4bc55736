#include "libs/saturate/avoiding_extractor.h"

#include <algorithm>
#include <utility>

namespace tessel::saturate {

AvoidingExtractor::AvoidingExtractor(const egraph::EGraph& g,
                                     const TirEncoding& encoding)
    : g_(g), encoding_(encoding), max_var_(MaxVar(g, encoding)) {}

int64_t AvoidingExtractor::MaxVar(const egraph::EGraph& g,
                                  const TirEncoding& encoding) {
  // Variables are leaves, hash-consed: one e-node per index.
  int64_t max = -1;
  for (egraph::NodeId n : g.NodesWithOp(encoding.var_op())) {
    max = std::max(max, encoding.VarIndex(g.Node(n).payload));
  }
  return max;
}

// An empty window, or one above every variable, forbids nothing: the
// windows that matter are finitely many even where lams form a cycle.
AvoidingExtractor::Key AvoidingExtractor::KeyOf(egraph::ClassId id, int64_t lo,
                                                int64_t hi) const {
  if (lo == hi || lo > max_var_) return {g_.Find(id), 0, 0};
  return {g_.Find(id), lo, hi};
}

uint32_t AvoidingExtractor::IndexOf(const Key& key) {
  auto [it, inserted] = index_.try_emplace(key, keys_.size());
  if (inserted) {
    keys_.push_back(key);
    size_.push_back(kNone);
    choice_.push_back(0);
    first_user_.push_back(kNoUser);
  }
  return it->second;
}

void AvoidingExtractor::Discover(uint32_t first) {
  const uint32_t first_option = options_.size();
  for (uint32_t k = first; k < keys_.size(); ++k) {
    const Key key = keys_[k];  // IndexOf may grow keys_
    for (egraph::NodeId n : g_.Nodes(key.id)) {
      egraph::ENodeRef node = g_.Node(n);
      Option option{k, n, static_cast<uint32_t>(children_.size()),
                    static_cast<uint32_t>(node.children.size()), false};
      if (node.op == encoding_.var_op()) {
        int64_t var = encoding_.VarIndex(node.payload);
        option.forbidden = var >= key.lo && var < key.hi;
      }
      int64_t shift = encoding_.IsLam(node.op) ? 1 : 0;
      for (egraph::ClassId child : node.children) {
        children_.push_back(
            IndexOf(KeyOf(child, key.lo + shift, key.hi + shift)));
      }
      options_.push_back(option);
    }
  }
  // The new options' children are old keys, settled or not, or new ones;
  // nothing settles while they are being counted.
  for (uint32_t o = first_option; o < options_.size(); ++o) {
    const Option& option = options_[o];
    uint32_t unsettled = 0;
    uint64_t sum = 1;
    for (uint32_t i = 0; i < option.arity; ++i) {
      const uint32_t child = children_[option.first_child + i];
      if (size_[child] == kNone) {
        ++unsettled;
        user_option_.push_back(o);
        next_user_.push_back(first_user_[child]);
        first_user_[child] = user_option_.size() - 1;
      } else {
        sum = size_[child] >= kNone - sum ? kNone : sum + size_[child];
      }
    }
    unsettled_.push_back(unsettled);
    sum_.push_back(sum);
    if (unsettled == 0 && sum != kNone && !option.forbidden) {
      candidates_.push({sum, option.key, o});
    }
  }
}

// Keys settle in order of size: a key's smallest candidate is its size,
// since every option still waiting has a child not settled yet, so bigger
// than the candidate, and one more than that. Options of keys walked later
// only wait for keys, never the other way round, so going on from where an
// earlier question stopped is the same as having walked everything first.
void AvoidingExtractor::Settle(uint32_t root) {
  while (size_[root] == kNone && !candidates_.empty()) {
    auto [size, k, o] = candidates_.top();
    candidates_.pop();
    if (size_[k] != kNone) continue;  // settled smaller
    size_[k] = size;
    choice_[k] = o;
    for (uint32_t u = first_user_[k]; u != kNoUser; u = next_user_[u]) {
      const uint32_t user = user_option_[u];
      // Saturating: a term too big to count is as good as none.
      sum_[user] = size >= kNone - sum_[user] ? kNone : sum_[user] + size;
      if (--unsettled_[user] == 0 && sum_[user] != kNone &&
          !options_[user].forbidden) {
        candidates_.push({sum_[user], options_[user].key, user});
      }
    }
    first_user_[k] = kNoUser;  // all told
  }
}

// A chosen option is bigger than each of its children, so this ends.
uint32_t AvoidingExtractor::Build(uint32_t k, egraph::Term& term) const {
  const Option& option = options_[choice_[k]];
  std::vector<uint32_t> children;
  children.reserve(option.arity);
  for (uint32_t i = 0; i < option.arity; ++i) {
    children.push_back(Build(children_[option.first_child + i], term));
  }
  egraph::ENodeRef node = g_.Node(option.node);
  return term.Add(node.op, node.payload, children);
}

std::optional<egraph::Term> AvoidingExtractor::Extract(egraph::ClassId id,
                                                       int64_t bound) {
  const uint32_t seen = keys_.size();
  const uint32_t root = IndexOf(KeyOf(id, 0, bound));
  if (root == seen) Discover(seen);
  Settle(root);
  if (size_[root] == kNone) return std::nullopt;
  egraph::Term term;
  Build(root, term);
  return term;
}

}  // namespace tessel::saturate
