#include "libs/ir/edit.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace tessel::ir {

void Walk(Node& root, absl::FunctionRef<void(Node&)> visit) {
  visit(root);
  // Copy: `visit` may edit the operands of the nodes it is given.
  std::vector<Node*> operands(root.operands().begin(), root.operands().end());
  for (Node* operand : operands) Walk(*operand, visit);
}

Node* FormOf(Node* node) {
  while (node != nullptr && node->parent() != nullptr) node = node->parent();
  return node != nullptr && node->info().op_class == OpClass::kTop ? node
                                                                   : nullptr;
}

std::string FreshName(const Module& module, const Node& form,
                      absl::string_view base) {
  absl::flat_hash_set<std::string> taken;
  Walk(const_cast<Node&>(form), [&](Node& node) {
    if (!node.name().empty()) taken.insert(node.name());
  });
  std::string name(base);
  for (int suffix = 1; taken.contains(name) || module.Find(name) != nullptr;
       ++suffix) {
    name = absl::StrCat(base, "_", suffix);
  }
  return name;
}

Node* Substitute(Module& module, Node* root, const Node* binder,
                 const Node& value) {
  if (root->is(Op::kRef) && root->def() == binder) {
    return module.Clone(&value);
  }
  std::vector<Node*> operands(root->operands().begin(), root->operands().end());
  for (Node* operand : operands) {
    Node* result = Substitute(module, operand, binder, value);
    if (result != operand) module.Replace(operand, result);
  }
  return root;
}

void Rename(Node& binder, const std::string& name, Node& scope) {
  Walk(scope, [&](Node& node) {
    if (node.is(Op::kRef) && node.def() == &binder) node.set_name(name);
  });
  binder.set_name(name);
}

Cursor Cursor::parent() const {
  return Cursor(*module_, node_ == nullptr ? nullptr : node_->parent());
}

Cursor Cursor::Sibling(int offset) const {
  if (node_ == nullptr || node_->parent() == nullptr) {
    return Cursor(*module_, nullptr);
  }
  Node* parent = node_->parent();
  auto position = static_cast<int64_t>(node_->position()) + offset;
  if (position < 0 ||
      position >= static_cast<int64_t>(parent->num_operands())) {
    return Cursor(*module_, nullptr);
  }
  return Cursor(*module_, parent->operand(position));
}

Cursor Cursor::prev() const { return Sibling(-1); }
Cursor Cursor::next() const { return Sibling(+1); }

Cursor Cursor::operand(size_t i) const {
  return Cursor(*module_, node_ != nullptr && i < node_->num_operands()
                              ? node_->operand(i)
                              : nullptr);
}

void Cursor::InsertBefore(Node* node) const {
  module_->Insert(node_->parent(), node_->position(), node);
}

void Cursor::InsertAfter(Node* node) const {
  module_->Insert(node_->parent(), node_->position() + 1, node);
}

void Cursor::Replace(Node* node) {
  module_->Replace(node_, node);
  node_ = node;
}

void Cursor::Detach() const { module_->Detach(node_); }

}  // namespace tessel::ir
