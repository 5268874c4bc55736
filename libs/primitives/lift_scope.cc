#include "libs/primitives/lift_scope.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"
#include "libs/primitives/reorder_loops.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

std::vector<Node*> Detached(ir::Module& module, absl::Span<Node* const> body) {
  std::vector<Node*> stmts(body.begin(), body.end());
  for (Node* stmt : stmts) module.Detach(stmt);
  return stmts;
}

// The condition of `branch` commutes with the statements of `loop`'s body
// that it now guards in every iteration, or runs before.
absl::Status ConditionCommutes(Node& branch, Node& loop) {
  effects::ProcAnalysis analysis(*ir::FormOf(&loop));
  const poly::ProcModel& model = analysis.model();
  auto body = effects::EffectsOf(model, ir::ForView(loop).body());
  if (!body.ok()) return body.status();
  auto condition = effects::ControlEffectsOf(model, branch);
  if (!condition.ok()) return condition.status();
  auto pairs = effects::InstancePairs(model, *condition, *body, 0);
  if (!pairs.ok()) return pairs.status();
  auto clash = effects::FindConflict(model, *condition, *body, *pairs);
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "lift_scope: the condition does not commute with the loop's body: ",
        **clash));
  }
  return absl::OkStatus();
}

// for i: if c: s1 else s2  ->  if c: (for i: s1) else (for i: s2)
absl::StatusOr<ir::Cursor> IfOutOfLoop(ir::Module& module, Node& branch,
                                       Node& loop) {
  ir::IfView view(branch);
  if (Uses(*view.cond(), loop)) {
    return absl::FailedPreconditionError(
        absl::StrCat("lift_scope: the condition uses the loop variable '",
                     loop.name(), "'"));
  }
  if (absl::Status status = ConditionCommutes(branch, loop); !status.ok()) {
    return status;
  }
  Node* then_loop =
      LoopAround(module, loop, Detached(module, view.then_body()));
  std::vector<Node*> orelse;
  if (view.else_block() != nullptr) {
    orelse.push_back(
        LoopAround(module, loop, Detached(module, view.else_body())));
  }
  Node* lifted =
      ir::Build::If(module, module.Clone(view.cond()), {then_loop}, orelse);
  module.Replace(&loop, lifted);
  module.Forward(&loop, then_loop);
  module.Forward(&branch, lifted);
  return ir::Cursor(module, lifted);
}

// if c: for i: s  ->  for i: if c: s
absl::StatusOr<ir::Cursor> LoopOutOfIf(ir::Module& module, Node& loop,
                                       Node& branch) {
  if (absl::Status status = ConditionCommutes(branch, loop); !status.ok()) {
    return status;
  }
  ir::IfView view(branch);
  Node* inner = ir::Build::If(module, module.Clone(view.cond()),
                              Detached(module, ir::ForView(loop).body()));
  Node* lifted = LoopAround(module, loop, {inner});
  module.Replace(&branch, lifted);
  module.Forward(&branch, inner);
  module.Forward(&loop, lifted);
  return ir::Cursor(module, lifted);
}

// if a: (if b: s1 else s2) else s3
//   ->  if b: (if a: s1 else s3) else (if a: s2 else s3)
// and likewise for an if in the else-branch: the outer branch that does not
// hold it is copied into both (conditions read no state that a branch
// writes before them: each is evaluated first where it now stands).
ir::Cursor IfOutOfIf(ir::Module& module, Node& inner, Node& outer) {
  ir::IfView a(outer), b(inner);
  bool in_then = inner.parent()->is(Op::kThen);
  absl::Span<Node* const> other = in_then ? a.else_body() : a.then_body();
  auto with_a = [&](std::vector<Node*> stmts) {
    std::vector<Node*> copy;
    for (const Node* stmt : other) copy.push_back(module.Clone(stmt));
    return in_then ? ir::Build::If(module, module.Clone(a.cond()), stmts, copy)
                   : ir::Build::If(module, module.Clone(a.cond()), copy, stmts);
  };
  Node* then_if = with_a(Detached(module, b.then_body()));
  std::vector<Node*> orelse;
  if (b.else_block() != nullptr || !other.empty()) {
    orelse.push_back(with_a(Detached(module, b.else_body())));
  }
  Node* lifted =
      ir::Build::If(module, module.Clone(b.cond()), {then_if}, orelse);
  module.Replace(&outer, lifted);
  module.Forward(&outer, then_if);
  module.Forward(&inner, lifted);
  return ir::Cursor(module, lifted);
}

}  // namespace

absl::StatusOr<ir::Cursor> LiftScope(ir::Module& module,
                                     const ir::Cursor& scope) {
  if (absl::Status status = scope.status(); !status.ok()) return status;
  Node& inner = *scope.node();
  if (!inner.is(ir::Op::kFor) && !inner.is(ir::Op::kIf)) {
    return absl::InvalidArgumentError("lift_scope: expected a loop or an if");
  }
  Node* owner = inner.parent();
  Node* outer = owner->is(ir::Op::kThen) || owner->is(ir::Op::kElse)
                    ? owner->parent()
                    : owner;
  if (!outer->is(ir::Op::kFor) && !outer->is(ir::Op::kIf)) {
    return absl::InvalidArgumentError(
        "lift_scope: the scope is in no loop or if");
  }
  if (ir::Body(*owner).size() != 1) {
    return absl::InvalidArgumentError(
        "lift_scope: the scope must be the only statement of the body "
        "around it");
  }
  if (inner.is(ir::Op::kFor) && outer->is(ir::Op::kIf) &&
      ir::IfView(*outer).else_block() != nullptr) {
    return absl::InvalidArgumentError(
        "lift_scope: cannot lift a loop out of an if with an else-branch");
  }
  if (outer->is(ir::Op::kFor)) {
    if (inner.is(ir::Op::kFor)) {
      auto lifted = ReorderLoops(module, ir::Cursor(module, outer));
      if (!lifted.ok()) return lifted.status();
      return scope;
    }
    return IfOutOfLoop(module, inner, *outer);
  }
  if (inner.is(ir::Op::kFor)) return LoopOutOfIf(module, inner, *outer);
  return IfOutOfIf(module, inner, *outer);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return LiftScope(target.module, args["scope"].cursor).status();
}

}  // namespace

PrimitiveSpec LiftScopeSpec() {
  return {"lift_scope", {{"scope", ArgKind::kStmt, {}}}, &Run};
}

}  // namespace tessel::primitives
