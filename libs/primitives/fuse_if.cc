#include "libs/primitives/fuse_if.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/poly/model.h"

namespace tessel::primitives {

using ir::Node;

namespace {

bool Declares(const Node& stmt) {
  return stmt.is(ir::Op::kAlloc) || stmt.is(ir::Op::kLet);
}

// FailedPrecondition when `a` and `b` (branches to be joined) declare one
// name.
absl::Status NoNameDeclaredTwice(absl::Span<Node* const> a,
                                 absl::Span<Node* const> b) {
  for (const Node* x : a) {
    for (const Node* y : b) {
      if (Declares(*x) && Declares(*y) && x->name() == y->name()) {
        return absl::FailedPreconditionError(
            absl::StrCat("fuse: both ifs declare '", x->name(), "'"));
      }
    }
  }
  return absl::OkStatus();
}

// The statements of `a` then those of `b`, detached.
std::vector<Node*> Joined(ir::Module& module, absl::Span<Node* const> a,
                          absl::Span<Node* const> b) {
  std::vector<Node*> joined(a.begin(), a.end());
  joined.insert(joined.end(), b.begin(), b.end());
  for (Node* stmt : joined) module.Detach(stmt);
  return joined;
}

// OK when the conditions of the sibling ifs `first` and `second` hold at
// the same instances.
absl::Status SameCondition(const poly::ProcModel& model, Node& first,
                           Node& second) {
  ir::IfView a(first), b(second);
  absl::StatusOr<isl::set> c1 = model.Condition(*a.cond());
  if (!c1.ok()) return c1.status();
  absl::StatusOr<isl::set> c2 = model.Condition(*b.cond());
  if (!c2.ok()) return c2.status();
  absl::StatusOr<isl::pw_aff> zero = model.Constant(0, first);
  if (!zero.ok()) return zero.status();
  // Siblings run at the same instances: the second's set, renamed to the
  // first's statement, compares with the first's.
  isl::set second_at_first = isl::manage(isl_set_set_tuple_id(
      c2->copy(), isl_set_get_tuple_id(c1->get())));
  auto differ = model.FindViolation(
      first, {*zero}, [&](const std::vector<isl::pw_aff>&) {
        return c1->subtract(second_at_first)
            .unite(second_at_first.subtract(*c1));
      });
  if (!differ.ok()) return differ.status();
  if (differ->has_value()) {
    const std::string& at = (*differ)->at;
    return absl::FailedPreconditionError(absl::StrCat(
        "fuse: the conditions of the ifs differ", at.empty() ? "" : " at ",
        at));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Cursor> FuseIf(ir::Module& module, const ir::Cursor& stmt1,
                                  const ir::Cursor& stmt2) {
  for (const ir::Cursor* stmt : {&stmt1, &stmt2}) {
    if (absl::Status status = stmt->status(); !status.ok()) return status;
    if (!(*stmt)->is(ir::Op::kIf)) {
      return absl::InvalidArgumentError("fuse: expected two ifs or two loops");
    }
  }
  if (!(stmt1.next() == stmt2)) {
    return absl::InvalidArgumentError(
        "fuse: the second if must follow the first immediately");
  }
  Node& first = *stmt1.node();
  Node& second = *stmt2.node();
  ir::IfView a(first), b(second);
  if (absl::Status status = NoNameDeclaredTwice(a.then_body(), b.then_body());
      !status.ok()) {
    return status;
  }
  if (absl::Status status = NoNameDeclaredTwice(a.else_body(), b.else_body());
      !status.ok()) {
    return status;
  }
  effects::ProcAnalysis analysis(*ir::FormOf(&first));
  const poly::ProcModel& model = analysis.model();
  if (absl::Status status = SameCondition(model, first, second);
      !status.ok()) {
    return status;
  }
  auto branches = effects::EffectsOf(model, {&first});
  if (!branches.ok()) return branches.status();
  auto condition = effects::ControlEffectsOf(model, second);
  if (!condition.ok()) return condition.status();
  auto clash = effects::FindConflictInSharedIteration(
      model, *branches, *condition, effects::LoopsAround(first).size());
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fuse: the first if changes what the second condition reads: ",
        **clash));
  }
  std::vector<Node*> then = Joined(module, a.then_body(), b.then_body());
  std::vector<Node*> orelse = Joined(module, a.else_body(), b.else_body());
  Node* fused =
      ir::Build::If(module, module.Clone(a.cond()), then, orelse);
  module.Replace(&first, fused);
  module.Detach(&second);
  module.Forward(&second, fused);
  return ir::Cursor(module, fused);
}

}  // namespace tessel::primitives
