// What transformations build on: walking, fresh names, substitution and
// cursors. A transformation is a function from a module to a module through
// these and Module's editing calls (node.h); the verifier re-checks its
// output.
#ifndef TESSEL_LIBS_IR_EDIT_H_
#define TESSEL_LIBS_IR_EDIT_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// Calls `visit` on `root` and every node under it, parents first, in
// operand order.
void Walk(Node& root, absl::FunctionRef<void(Node&)> visit);

// The top-level form `node` lies in, or null for a detached tree.
Node* FormOf(Node* node);

// A name that neither binds nor is used anywhere in `form` and names no
// top-level form: `base` itself when it is free, else `base_1`, `base_2`...
std::string FreshName(const Module& module, const Node& form,
                      absl::string_view base);

// Every reference inside `root` to `binder` replaced by a copy of `value`.
// Returns the root of the result (`root` unless it was such a reference).
Node* Substitute(Module& module, Node* root, const Node* binder,
                 const Node& value);

// Gives `binder` (a For, Let, Alloc, Param or Value) the name `name`, and
// every reference to it inside `scope` the same.
void Rename(Node& binder, const std::string& name, Node& scope);

// A place in a module that survives edits elsewhere: a node, by identity.
// Statements are navigated as in Exo 2's cursors: the statement before and
// after in the same block, the enclosing statement, the body.
class Cursor {
 public:
  Cursor(Module& module, Node* node) : module_(&module), node_(node) {}

  Node* node() const { return node_; }
  Node* operator->() const { return node_; }
  bool operator==(const Cursor& other) const { return node_ == other.node_; }

  // The enclosing node, the previous and next operand of the same parent;
  // null cursors (node() == nullptr) at the ends.
  Cursor parent() const;
  Cursor prev() const;
  Cursor next() const;
  // Operand `i`.
  Cursor operand(size_t i) const;

  // Edits around the cursor's node. Inserted nodes are detached trees.
  void InsertBefore(Node* node) const;
  void InsertAfter(Node* node) const;
  // Replaces the node; the cursor then points at `node`.
  void Replace(Node* node);
  // Detaches the node; the cursor keeps pointing at the detached tree.
  void Detach() const;

 private:
  Cursor Sibling(int offset) const;

  Module* module_;
  Node* node_;
};

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_EDIT_H_
