#include "libs/primitives/left_reassociate_expr.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;

absl::Status LeftReassociateExpr(ir::Module& module, const ir::Cursor& expr) {
  if (absl::Status status = expr.status(); !status.ok()) return status;
  const Node& old = *expr.node();
  if ((!old.is(ir::Op::kAdd) && !old.is(ir::Op::kMul)) ||
      !old.operand(1)->is(old.op())) {
    return absl::InvalidArgumentError(absl::StrCat(
        "left_reassociate_expr expects a + (b + c) or a * (b * c), not '",
        NodeText(old), "'"));
  }
  if (absl::Status status =
          CheckExactRegrouping(
              old,
              old.is(ir::Op::kMul) ? Regrouping::kProduct : Regrouping::kSum,
              "left_reassociate_expr");
      !status.ok()) {
    return status;
  }
  const Node& right = *old.operand(1);
  Node* left = ir::Build::Binary(module, old.op(), module.Clone(old.operand(0)),
                                 module.Clone(right.operand(0)));
  expr.Replace(ir::Build::Binary(module, old.op(), left,
                                 module.Clone(right.operand(1))));
  return absl::OkStatus();
}

PrimitiveSpec LeftReassociateExprSpec() {
  return {"left_reassociate_expr",
          {{"expr", ArgKind::kExpr, std::nullopt}},
          [](Target& target, const Args& args) {
            return LeftReassociateExpr(target.module, args["expr"].cursor);
          }};
}

}  // namespace tessel::primitives
