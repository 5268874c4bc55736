#include "libs/ir/edit.h"

#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"

namespace tessel::ir {

namespace {

// The root of a symbolic dimension's tree. Types hold their dimensions as
// const, but the trees are nodes of the declaration's module, which edits
// change as they change the declaration.
Node& DimRoot(const Dim& dim) { return *const_cast<Node*>(dim.expr); }

// Substitute in the dimensions of `node`'s declared type; a dimension
// that becomes a positive integer literal becomes a constant one, as the
// reader makes it.
void SubstituteInDims(Module& module, Node& node, const Node* binder,
                      const Node& value) {
  const Type& type = node.declared_type();
  if (!type.is_shaped()) return;
  std::vector<Dim> dims = type.dims();
  bool changed = false;
  for (Dim& dim : dims) {
    if (dim.is_constant()) continue;
    Node* root = Substitute(module, &DimRoot(dim), binder, value);
    if (root == dim.expr) continue;
    changed = true;
    dim = root->is(Op::kConst) && !root->is_float_literal() &&
                  root->int_value() > 0
              ? Dim::Constant(root->int_value())
              : Dim::Symbolic(root);
  }
  if (changed) node.set_declared_type(type.WithDims(std::move(dims)));
}

}  // namespace

void Walk(Node& root, absl::FunctionRef<void(Node&)> visit) {
  visit(root);
  // A declaration's symbolic dimensions are part of it, though kept in its
  // type rather than as operands.
  for (const Dim& dim : root.declared_type().dims()) {
    if (!dim.is_constant()) Walk(DimRoot(dim), visit);
  }
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
  SubstituteInDims(module, *root, binder, value);
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

}  // namespace tessel::ir
