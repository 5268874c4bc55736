#include "libs/primitives/lift_alloc.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// Does a statement of the body that holds `scope` declare `name`?
bool Declares(const Node& scope, const std::string& name) {
  for (const Node* stmt : ir::Body(*scope.parent())) {
    if ((stmt->is(ir::Op::kAlloc) || stmt->is(ir::Op::kLet)) &&
        stmt->name() == name) {
      return true;
    }
  }
  return false;
}

}  // namespace

absl::StatusOr<ir::Cursor> LiftAlloc(ir::Module& module,
                                     const ir::Cursor& alloc, int64_t n_lifts) {
  if (absl::Status status = alloc.status(); !status.ok()) return status;
  Node* node = alloc.node();
  if (!node->is(ir::Op::kAlloc)) {
    return absl::InvalidArgumentError("lift_alloc: expected an alloc");
  }
  if (n_lifts < 1) {
    return absl::InvalidArgumentError("lift_alloc: n_lifts must be at least 1");
  }
  // The scopes it leaves, innermost first, checked before any edit.
  std::vector<Node*> scopes;
  Node* at = node;
  for (int64_t lift = 0; lift < n_lifts; ++lift) {
    Node* scope = ScopeOf(*at);
    if (scope == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("lift_alloc: lift ", lift + 1, " of ", n_lifts,
                       " is out of the procedure's body"));
    }
    if (Declares(*scope, node->name())) {
      return absl::FailedPreconditionError(
          absl::StrCat("lift_alloc: '", node->name(),
                       "' is declared already where it would go"));
    }
    scopes.push_back(scope);
    at = scope;
  }
  for (Node* scope : scopes) {
    if (absl::Status status =
            alloc.as_block().MoveTo(ir::Cursor(module, scope).before());
        !status.ok()) {
      return status;
    }
  }
  return alloc;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return LiftAlloc(target.module, args["alloc"].cursor,
                   args["n_lifts"].int_value)
      .status();
}

}  // namespace

PrimitiveSpec LiftAllocSpec() {
  return {"lift_alloc",
          {{"alloc", ArgKind::kAlloc, {}}, {"n_lifts", ArgKind::kInt, "1"}},
          &Run};
}

}  // namespace tessel::primitives
