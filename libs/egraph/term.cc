#include "libs/egraph/term.h"

#include <utility>

#include "absl/container/flat_hash_set.h"

namespace tessel::egraph {

uint32_t Term::Add(OpId op, PayloadId payload,
                   absl::Span<const uint32_t> children) {
  uint32_t first = children_.size();
  children_.insert(children_.end(), children.begin(), children.end());
  nodes_.push_back(
      {op, payload, first, static_cast<uint32_t>(children.size())});
  return nodes_.size() - 1;
}

Term Term::Subterm(uint32_t i) const {
  // Copies the nodes reachable from i in their original (post-)order.
  std::vector<bool> reachable(i + 1, false);
  reachable[i] = true;
  for (uint32_t j = i + 1; j-- > 0;) {
    if (!reachable[j]) continue;
    for (uint32_t c : children(j)) reachable[c] = true;
  }
  Term out;
  std::vector<uint32_t> index(i + 1, 0);
  std::vector<uint32_t> kids;
  for (uint32_t j = 0; j <= i; ++j) {
    if (!reachable[j]) continue;
    kids.clear();
    for (uint32_t c : children(j)) kids.push_back(index[c]);
    index[j] = out.Add(nodes_[j].op, nodes_[j].payload, kids);
  }
  return out;
}

bool operator==(const Term& a, const Term& b) {
  if (a.empty() || b.empty()) return a.empty() && b.empty();
  // Pairs of nodes to compare; each pair once (terms may share subterms).
  std::vector<std::pair<uint32_t, uint32_t>> todo = {{a.root(), b.root()}};
  absl::flat_hash_set<std::pair<uint32_t, uint32_t>> seen;
  while (!todo.empty()) {
    auto [i, j] = todo.back();
    todo.pop_back();
    if (!seen.insert({i, j}).second) continue;
    const Term::Node& x = a.node(i);
    const Term::Node& y = b.node(j);
    if (x.op != y.op || x.payload != y.payload || x.arity != y.arity) {
      return false;
    }
    for (uint32_t k = 0; k < x.arity; ++k) {
      todo.push_back({a.children(i)[k], b.children(j)[k]});
    }
  }
  return true;
}

}  // namespace tessel::egraph
