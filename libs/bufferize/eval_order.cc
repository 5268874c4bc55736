#include "libs/bufferize/eval_order.h"

#include "libs/ir/de_bruijn.h"

namespace tessel::bufferize {

EvalOrder::EvalOrder(const ir::Node& func) {
  Number(*func.operand(func.num_operands() - 1));
}

void EvalOrder::Number(const ir::Node& node) {
  Span& span = spans_[&node];
  span.first = next_++;
  if (node.is(ir::Op::kVar)) {
    if (const ir::Node* lam = ir::LamOf(node)) uses_[lam].push_back(&node);
  } else if (node.is(ir::Op::kRef) && node.def() != nullptr) {
    uses_[node.def()].push_back(&node);
  }
  if (node.is(ir::Op::kApp)) {
    // The argument first, then the function's body.
    Number(*node.operand(1));
    Number(*node.operand(0));
  } else {
    for (const ir::Node* operand : node.operands()) Number(*operand);
  }
  spans_[&node].last = next_ - 1;
}

Span EvalOrder::SpanOf(const ir::Node& node) const {
  auto it = spans_.find(&node);
  return it == spans_.end() ? Span{} : it->second;
}

const std::vector<const ir::Node*>& EvalOrder::UsesOf(
    const ir::Node& binder) const {
  static const auto* const kNone = new std::vector<const ir::Node*>();
  auto it = uses_.find(&binder);
  return it == uses_.end() ? *kNone : it->second;
}

}  // namespace tessel::bufferize
