#include "libs/ir/share.h"

#include <cstdint>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/hash/hash.h"
#include "libs/ir/de_bruijn.h"

namespace tessel::ir {
namespace {

// Forms that compute a value worth naming: loops and library calls. Others
// (index, tuple, arithmetic on scalars) cost no more than a reference.
bool Nameable(const Node& node) {
  switch (node.op()) {
    case Op::kBuild:
    case Op::kIfold:
    case Op::kLibCall:
      return !HasFreeVars(node);
    default:
      return false;
  }
}

// A structural hash that alpha-equivalent trees share: binding names are
// left out, references hash their binder.
class Hasher {
 public:
  size_t Hash(const Node* node) {
    size_t h = absl::HashOf(node->op(), node->text(), node->int_value(),
                            node->is_float_literal(), node->float_value());
    if (node->is(Op::kRef)) {
      h = absl::HashOf(h, node->def());
    } else if (!node->is(Op::kLam)) {
      h = absl::HashOf(h, node->name());
    }
    for (const Node* operand : node->operands()) {
      h = absl::HashOf(h, Hash(operand));
    }
    sizes_[node] = Size(node);
    hashes_[node] = h;
    return h;
  }
  size_t HashOf(const Node* node) const { return hashes_.at(node); }
  size_t SizeOf(const Node* node) const { return sizes_.at(node); }

 private:
  size_t Size(const Node* node) const {
    size_t size = 1;
    for (const Node* operand : node->operands()) size += sizes_.at(operand);
    return size;
  }
  absl::flat_hash_map<const Node*, size_t> hashes_;
  absl::flat_hash_map<const Node*, size_t> sizes_;
};

// The nodes of `root` in pre-order.
void PreOrder(Node* node, std::vector<Node*>& out) {
  out.push_back(node);
  for (Node* operand : node->operands()) PreOrder(operand, out);
}

// The occurrences of the largest nameable value of `root` that occurs at
// least twice (the first such in pre-order among equally large ones), or
// none.
std::vector<Node*> LargestRepeated(Node* root) {
  Hasher hasher;
  hasher.Hash(root);
  std::vector<Node*> nodes;
  PreOrder(root, nodes);
  // Candidate groups by hash; a group holds alpha-equivalent nodes.
  absl::flat_hash_map<size_t, std::vector<std::vector<Node*>>> groups;
  for (Node* node : nodes) {
    if (!Nameable(*node)) continue;
    auto& same_hash = groups[hasher.HashOf(node)];
    bool placed = false;
    for (std::vector<Node*>& group : same_hash) {
      if (AlphaEquivalent(group.front(), node)) {
        group.push_back(node);
        placed = true;
        break;
      }
    }
    if (!placed) same_hash.push_back({node});
  }
  // Pre-order makes the first group found of a size the first in the term.
  std::vector<Node*> best;
  size_t best_size = 0;
  for (Node* node : nodes) {
    if (!Nameable(*node) || hasher.SizeOf(node) <= best_size) continue;
    for (std::vector<Node*>& group : groups[hasher.HashOf(node)]) {
      if (group.front() == node && group.size() > 1) {
        best = group;
        best_size = hasher.SizeOf(node);
      }
    }
  }
  return best;
}

// The number of lams between `node` and `root` (`root` included).
int64_t LamDepth(const Node* node, const Node* root) {
  int64_t depth = 0;
  for (const Node* up = node->parent(); up != nullptr; up = up->parent()) {
    if (up->is(Op::kLam)) ++depth;
    if (up == root) break;
  }
  return depth;
}

}  // namespace

Node* ShareRepeatedValues(Module& module, Node* term) {
  Node* root = term;
  for (std::vector<Node*> occurrences = LargestRepeated(root);
       !occurrences.empty(); occurrences = LargestRepeated(root)) {
    // `root` moves under one more lam: variables that refer past it follow.
    Shift(*root, 1);
    Node* value = occurrences.front();
    for (Node* occurrence : occurrences) {
      Node* var = module.Create(Op::kVar, occurrence->loc());
      var->set_int(LamDepth(occurrence, root));
      module.Replace(occurrence, var);
    }
    Node* app = module.Create(Op::kApp, root->loc());
    Node* lam = module.Create(Op::kLam, root->loc());
    module.Replace(root, app);
    module.Append(lam, root);
    module.Append(app, lam);
    module.Append(app, value);
    root = app;
  }
  return root;
}

}  // namespace tessel::ir
