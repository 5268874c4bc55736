#include "libs/primitives/lift_reduce_constant.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/loop_support.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

absl::Status LiftReduceConstant(ir::Module& module,
                                const ir::BlockCursor& block) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  std::vector<Node*> stmts = block.statements();
  const auto shape_error = absl::InvalidArgumentError(
      "lift_reduce_constant expects a block `x = 0; for i in _: x += c * e`");
  if (stmts.size() != 2 || !stmts[0]->is(Op::kAssign) ||
      !stmts[1]->is(Op::kFor)) {
    return shape_error;
  }
  const Node& zero = *stmts[0]->operand(1);
  ir::ForView loop(*stmts[1]);
  if (!zero.is(Op::kConst) ||
      (zero.is_float_literal() ? zero.float_value() : zero.int_value()) != 0 || loop.body().size() != 1 ||
      !loop.body()[0]->is(Op::kReduce) ||
      !loop.body()[0]->operand(1)->is(Op::kMul)) {
    return shape_error;
  }
  const Node& location = *stmts[0]->operand(0);
  Node& reduce = *loop.body()[0];
  if (!SameLocation(location, *reduce.operand(0))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "lift_reduce_constant: the loop reduces '", NodeText(*reduce.operand(0)),
        "', not the assigned '", NodeText(location), "'"));
  }
  const Node& product = *reduce.operand(1);
  const Node& factor = *product.operand(0);
  if (Uses(factor, *stmts[1])) {
    return absl::FailedPreconditionError(absl::StrCat(
        "lift_reduce_constant: the factor '", NodeText(factor),
        "' uses the loop variable '", loop.var(), "'"));
  }
  if (const Node* read = ReadOf(factor, BufferOf(location))) {
    return absl::FailedPreconditionError(absl::StrCat(
        "lift_reduce_constant: the factor '", NodeText(factor), "' reads '",
        NodeText(*read), "', which the loop writes"));
  }
  if (absl::Status status =
          CheckExactRegrouping(location, Regrouping::kDistribute, "lift_reduce_constant");
      !status.ok()) {
    return status;
  }
  Node* scaled = ir::Build::Assign(
      module, module.Clone(&location),
      ir::Build::Mul(module, module.Clone(&factor), module.Clone(&location)));
  ir::Cursor(module, &reduce)
      .Replace(ir::Build::Reduce(module, module.Clone(reduce.operand(0)),
                                 module.Clone(product.operand(1))));
  ir::Cursor(module, stmts[1]).InsertAfter(scaled);
  return absl::OkStatus();
}

PrimitiveSpec LiftReduceConstantSpec() {
  return {"lift_reduce_constant",
          {{"block_cursor", ArgKind::kBlock, std::nullopt}},
          [](Target& target, const Args& args) {
            return LiftReduceConstant(target.module,
                                      args["block_cursor"].block);
          }};
}

}  // namespace tessel::primitives
