#include "libs/ir/de_bruijn.h"

#include <vector>

namespace tessel::ir {
namespace {

// Calls `visit(var, depth)` for every Var under `node`, `depth` counting the
// lams between `node` and the var.
template <typename Visit>
void ForEachVar(Node& node, int64_t depth, Visit& visit) {
  if (node.is(Op::kVar)) {
    visit(node, depth);
    return;
  }
  int64_t inner = depth + (node.is(Op::kLam) ? 1 : 0);
  // Copy: `visit` may replace operands.
  std::vector<Node*> operands(node.operands().begin(), node.operands().end());
  for (Node* operand : operands) ForEachVar(*operand, inner, visit);
}

}  // namespace

const Node* LamOf(const Node& var) {
  int64_t k = var.int_value();
  for (const Node* node = var.parent(); node != nullptr;
       node = node->parent()) {
    if (node->is(Op::kLam) && k-- == 0) return node;
  }
  return nullptr;
}

bool HasFreeVars(const Node& term, int64_t depth) {
  bool free = false;
  auto visit = [&](const Node& var, int64_t inner) {
    free |= var.int_value() >= inner + depth;
  };
  ForEachVar(const_cast<Node&>(term), 0, visit);
  return free;
}

int64_t Uses(const Node& term, int64_t depth) {
  int64_t uses = 0;
  auto visit = [&](const Node& var, int64_t inner) {
    uses += var.int_value() == inner + depth ? 1 : 0;
  };
  ForEachVar(const_cast<Node&>(term), 0, visit);
  return uses;
}

void Shift(Node& term, int64_t by, int64_t cutoff) {
  auto visit = [&](Node& var, int64_t inner) {
    if (var.int_value() >= inner + cutoff) var.set_int(var.int_value() + by);
  };
  ForEachVar(term, 0, visit);
}

Node* Instantiate(Module& module, Node* body, const Node& value) {
  Node* root = body;
  auto visit = [&](Node& var, int64_t inner) {
    int64_t k = var.int_value();
    if (k < inner) return;  // bound inside `body`
    if (k > inner) {        // bound past the lam
      var.set_int(k - 1);
      return;
    }
    Node* copy = module.Clone(&value);
    Shift(*copy, inner);
    if (&var == root) {
      root = copy;
    } else {
      module.Replace(&var, copy);
    }
  };
  ForEachVar(*body, 0, visit);
  return root;
}

}  // namespace tessel::ir
