#include "libs/primitives/commute_expr.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

using ir::Node;

absl::Status CommuteExpr(ir::Module& module,
                         const std::vector<ir::Cursor>& exprs) {
  for (const ir::Cursor& expr : exprs) {
    if (absl::Status status = expr.status(); !status.ok()) return status;
    if (!expr->is(ir::Op::kAdd) && !expr->is(ir::Op::kMul)) {
      return absl::InvalidArgumentError(
          absl::StrCat("commute_expr expects a sum or a product, not '",
                       NodeText(*expr.node()), "'"));
    }
  }
  // Innermost first (a match nested in another comes after it in program
  // order), so that the outer copies the swapped inner.
  for (auto it = exprs.rbegin(); it != exprs.rend(); ++it) {
    const ir::Cursor& expr = *it;
    const Node& old = *expr.node();
    expr.Replace(ir::Build::Binary(module, old.op(),
                                   module.Clone(old.operand(1)),
                                   module.Clone(old.operand(0))));
  }
  return absl::OkStatus();
}

PrimitiveSpec CommuteExprSpec() {
  return {"commute_expr",
          {{"expr_cursors", ArgKind::kExpr, std::nullopt}},
          [](Target& target, const Args& args) {
            const Arg& arg = args["expr_cursors"];
            return CommuteExpr(target.module,
                               arg.matches.empty()
                                   ? std::vector<ir::Cursor>{arg.cursor}
                                   : arg.matches);
          }};
}

}  // namespace tessel::primitives
