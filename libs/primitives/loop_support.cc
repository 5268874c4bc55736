#include "libs/primitives/loop_support.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/views.h"

namespace tessel::primitives {

using ir::Node;

Node* LoopAround(ir::Module& module, const Node& loop,
                 absl::Span<Node* const> stmts) {
  ir::ForView view(const_cast<Node&>(loop));
  Node* copy = ir::Build::For(module, view.var(), module.Clone(view.lo()),
                              module.Clone(view.hi()), {});
  Node* ref = ir::Build::Ref(module, *copy);
  for (Node* stmt : std::vector<Node*>(stmts.begin(), stmts.end())) {
    if (stmt->parent() != nullptr) module.Detach(stmt);
    module.Append(copy, stmt);
    ir::Substitute(module, stmt, &loop, *ref);
  }
  return copy;
}

absl::Status NoScopeCrossing(absl::Span<Node* const> binders,
                             absl::Span<Node* const> users,
                             const std::string& what) {
  for (Node* user : users) {
    absl::Status status;
    ir::Walk(*user, [&](Node& node) {
      if (!status.ok() || !node.is(ir::Op::kRef) || node.def() == nullptr) {
        return;
      }
      for (Node* binder : binders) {
        if (node.def() == binder &&
            (binder->is(ir::Op::kAlloc) || binder->is(ir::Op::kLet))) {
          status = absl::FailedPreconditionError(absl::StrCat(
              what, ": '", node.name(),
              "' would be used outside the scope of its declaration"));
        }
      }
    });
    if (!status.ok()) return status;
  }
  return absl::OkStatus();
}

absl::StatusOr<ir::Node*> LoopAt(const ir::Cursor& cursor,
                                 const std::string& what) {
  if (absl::Status status = cursor.status(); !status.ok()) return status;
  Node* loop = cursor.node();
  if (!loop->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError(absl::StrCat(
        what, ": expected a loop, not a ", ir::Info(loop->op()).spelling));
  }
  return loop;
}

absl::StatusOr<std::pair<Node*, Node*>> NestedLoops(const ir::Cursor& outer,
                                                    const std::string& what) {
  auto loop = LoopAt(outer, what);
  if (!loop.ok()) return loop.status();
  auto body = ir::ForView(**loop).body();
  if (body.size() != 1 || !body[0]->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, ": the body of loop '", (*loop)->name(),
                     "' must be exactly one loop (perfectly nested loops)"));
  }
  return std::make_pair(*loop, body[0]);
}

bool Uses(const Node& root, const Node& binder) {
  bool uses = false;
  ir::Walk(const_cast<Node&>(root), [&](Node& node) {
    uses = uses || (node.is(ir::Op::kRef) && node.def() == &binder);
  });
  return uses;
}

absl::StatusOr<std::vector<isl::pw_aff>> AffineAt(
    const poly::ProcModel& model, const std::vector<Node*>& exprs,
    const Node& at, const std::string& failure) {
  std::vector<isl::pw_aff> values;
  for (Node* expr : exprs) {
    auto value = model.Affine(*expr, at);
    if (!value.ok()) {
      return absl::FailedPreconditionError(
          absl::StrCat(failure, ": ", value.status().message()));
    }
    values.push_back(*value);
  }
  return values;
}

absl::Status BoundsCommute(const poly::ProcModel& model,
                           const std::vector<Node*>& loops,
                           const effects::Effects& body,
                           const std::string& what) {
  for (Node* loop : loops) {
    auto bounds = effects::ControlEffectsOf(model, *loop);
    if (!bounds.ok()) return bounds.status();
    auto pairs = effects::InstancePairs(model, *bounds, body, 0);
    if (!pairs.ok()) return pairs.status();
    auto clash = effects::FindConflict(model, *bounds, body, *pairs);
    if (!clash.ok()) return clash.status();
    if (clash->has_value()) {
      return absl::FailedPreconditionError(
          absl::StrCat(what, ": the bounds of loop '", loop->name(),
                       "' do not commute with its body: ", **clash));
    }
  }
  return absl::OkStatus();
}

absl::StatusOr<std::optional<std::string>> MayRunNone(
    const poly::ProcModel& model, const Node& loop) {
  ir::ForView view(const_cast<Node&>(loop));
  auto lo = model.Affine(*view.lo());
  auto hi = model.Affine(*view.hi());
  if (!lo.ok() || !hi.ok()) return std::optional<std::string>("");
  auto none = model.FindViolation(
      loop, {*lo, *hi},
      [](const std::vector<isl::pw_aff>& v) { return v[1].le_set(v[0]); });
  if (!none.ok()) return none.status();
  if (!none->has_value()) return std::optional<std::string>();
  return std::optional<std::string>((*none)->at);
}

ir::Node* ScopeOf(ir::Node& stmt) {
  ir::Node* owner = stmt.parent();
  if (owner->is(ir::Op::kThen) || owner->is(ir::Op::kElse)) {
    owner = owner->parent();
  }
  return owner->is(ir::Op::kFor) || owner->is(ir::Op::kIf) ? owner : nullptr;
}

}  // namespace tessel::primitives
