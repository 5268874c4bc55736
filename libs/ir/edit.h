// What transformations build on: walking, fresh names, substitution and
// renaming. A transformation is a function from a module to a module
// through these, cursors (cursor.h), builders (build.h) and Module's
// editing calls (node.h); the verifier re-checks its output.
#ifndef TESSEL_LIBS_IR_EDIT_H_
#define TESSEL_LIBS_IR_EDIT_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// Calls `visit` on `root` and every node under it, parents first, in
// operand order. The symbolic dimensions of a declared type (a Param's or
// an Alloc's `(f32 N (+ M 1))`: trees of the declaration, kept in its type
// rather than as operands) are under their declaration, visited after it
// and before its operands.
void Walk(Node& root, absl::FunctionRef<void(Node&)> visit);

// The top-level form `node` lies in, or null for a detached tree.
Node* FormOf(Node* node);

// A name that neither binds nor is used anywhere in `form` and names no
// top-level form: `base` itself when it is free, else `base_1`, `base_2`...
std::string FreshName(const Module& module, const Node& form,
                      absl::string_view base);

// Every reference inside `root` to `binder` replaced by a copy of `value`,
// in declared types' dimensions too (specialising a size N to 64 makes
// `(f32 N)` `(f32 64)`). Returns the root of the result (`root` unless it
// was such a reference).
Node* Substitute(Module& module, Node* root, const Node* binder,
                 const Node& value);

// Gives `binder` (a For, Let, Alloc, Param or Value) the name `name`, and
// every reference to it inside `scope` the same, in the dimensions of the
// types declared there too (Walk).
void Rename(Node& binder, const std::string& name, Node& scope);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_EDIT_H_
