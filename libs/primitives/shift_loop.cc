#include "libs/primitives/shift_loop.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status ShiftLoop(ir::Module& module, const ir::Cursor& loop,
                       const Node& new_lo) {
  if (absl::Status status = loop.status(); !status.ok()) return status;
  Node* old = loop.node();
  if (!old->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError("shift_loop: expected a loop");
  }
  {
    poly::Context context;
    poly::ProcModel model(isl::ctx(context.get()), *loop.proc().node());
    absl::StatusOr<isl::pw_aff> lo = model.Affine(new_lo, *old);
    if (!lo.ok()) return lo.status();
    auto violation =
        model.FindViolation(*old, {*lo}, [](const std::vector<isl::pw_aff>& v) {
          return v[0].lt_set(poly::ConstantOn(v[0], 0));
        });
    if (!violation.ok()) return violation.status();
    if (violation->has_value()) {
      const poly::Violation& at = **violation;
      return absl::FailedPreconditionError(
          absl::StrCat("shift_loop: the new lower bound of loop '", old->name(),
                       "' must be non-negative, but it can be ", at.values[0],
                       at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")")));
    }
  }
  // HI - LO, and the old variable's value, LO - NEW_LO + i.
  auto clone = [&](const Node* node) { return module.Clone(node); };
  Node* hi = SimplifyExpr(module,
                          *Build::Add(module, clone(&new_lo),
                                      Build::Sub(module, clone(old->operand(1)),
                                                 clone(old->operand(0)))));
  Node* shifted =
      Build::For(module, old->name(), SimplifyExpr(module, new_lo), hi, {});
  Node* value = SimplifyExpr(
      module,
      *Build::Add(module, Build::Ref(module, *shifted),
                  Build::Sub(module, clone(old->operand(0)), clone(&new_lo))));
  std::vector<Node*> body(ir::Body(*old).begin(), ir::Body(*old).end());
  for (Node* stmt : body) {
    module.Detach(stmt);
    ir::Substitute(module, stmt, old, *value);
    (void)Simplify(module, *stmt);  // always OK
    module.Append(shifted, stmt);
  }
  loop.Replace(shifted);
  return absl::OkStatus();
}

namespace {

absl::Status RunShiftLoop(Target& target, const Args& args) {
  return ShiftLoop(target.module, args["loop_cursor"].cursor,
                   *args["new_lo"].node);
}

}  // namespace

PrimitiveSpec ShiftLoopSpec() {
  return {"shift_loop",
          {{"loop_cursor", ArgKind::kLoop, std::nullopt},
           {"new_lo", ArgKind::kExprText, std::nullopt}},
          &RunShiftLoop};
}

}  // namespace tessel::primitives
