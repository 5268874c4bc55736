#include "libs/primitives/fold_into_reduce.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;

absl::Status FoldIntoReduce(ir::Module& module, const ir::Cursor& assign) {
  if (absl::Status status = assign.status(); !status.ok()) return status;
  const Node& stmt = *assign.node();
  if (!stmt.is(ir::Op::kAssign) || !stmt.operand(1)->is(ir::Op::kAdd)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "fold_into_reduce expects an assignment of a sum (x = x + e), not '",
        NodeText(stmt), "'"));
  }
  const Node& location = *stmt.operand(0);
  const Node& sum = *stmt.operand(1);
  if (!SameLocation(location, *sum.operand(0))) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fold_into_reduce: the sum's left operand '", NodeText(*sum.operand(0)),
        "' is not the assigned location '", NodeText(location), "'"));
  }
  assign.Replace(ir::Build::Reduce(module, module.Clone(&location),
                                   module.Clone(sum.operand(1))));
  return absl::OkStatus();
}

PrimitiveSpec FoldIntoReduceSpec() {
  return {"fold_into_reduce",
          {{"assign", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return FoldIntoReduce(target.module, args["assign"].cursor);
          }};
}

}  // namespace tessel::primitives
