#include "libs/primitives/rewrite_expr.h"

#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"

namespace tessel::primitives {

using ir::Node;

absl::Status RewriteExpr(ir::Module& module, const ir::Cursor& expr,
                         const Node& new_expr) {
  if (absl::Status status = expr.status(); !status.ok()) return status;
  const Node& old = *expr.node();
  if (!old.type().is_control() || old.type().is_control(ControlType::kBool)) {
    return absl::InvalidArgumentError(
        "rewrite_expr: expected an integer control expression");
  }
  poly::Context context;
  poly::ProcModel model(isl::ctx(context.get()), *expr.proc().node());
  const Node& stmt = model.StatementOf(old);
  absl::StatusOr<isl::pw_aff> before = model.Affine(old, stmt);
  if (!before.ok()) return before.status();
  absl::StatusOr<isl::pw_aff> after = model.Affine(new_expr, stmt);
  if (!after.ok()) return after.status();
  auto differs = model.FindViolation(
      stmt, {*before, *after},
      [](const std::vector<isl::pw_aff>& v) { return v[0].ne_set(v[1]); });
  if (!differs.ok()) return differs.status();
  if (differs->has_value()) {
    const poly::Violation& at = **differs;
    return absl::FailedPreconditionError(absl::StrCat(
        "rewrite_expr: the new expression must equal the old, but it can be ",
        at.values[1], " where the old is ", at.values[0],
        at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")")));
  }
  expr.Replace(module.Clone(&new_expr));
  return absl::OkStatus();
}

namespace {

absl::Status RunRewriteExpr(Target& target, const Args& args) {
  return RewriteExpr(target.module, args["expr_cursor"].cursor,
                     *args["new_expr"].node);
}

}  // namespace

PrimitiveSpec RewriteExprSpec() {
  return {"rewrite_expr",
          {{"expr_cursor", ArgKind::kExpr, std::nullopt},
           {"new_expr", ArgKind::kExprText, std::nullopt}},
          &RunRewriteExpr};
}

}  // namespace tessel::primitives
