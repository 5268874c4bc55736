#include "libs/primitives/contract_fma.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"

namespace tessel::primitives {

absl::Status ContractFma(ir::Module& module, const ir::Cursor& stmt) {
  if (!stmt.is_valid()) return stmt.status();
  const ir::Node& reduce = *stmt.node();
  if (!reduce.is(ir::Op::kReduce) || !reduce.operand(1)->is(ir::Op::kMul)) {
    return absl::InvalidArgumentError(
        absl::StrCat("contract_fma expects a reduction of a product (x += a "
                     "* b), not '",
                     NodeText(reduce), "'"));
  }
  const ir::Node& location = *reduce.operand(0);
  const ir::Node& product = *reduce.operand(1);
  ir::Node* fma =
      ir::Build::Fma(module, module.Clone(product.operand(0)),
                     module.Clone(product.operand(1)), module.Clone(&location));
  stmt.Replace(ir::Build::Assign(module, module.Clone(&location), fma));
  return absl::OkStatus();
}

PrimitiveSpec ContractFmaSpec() {
  return {"contract_fma",
          {{"stmt_cursor", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return ContractFma(target.module, args["stmt_cursor"].cursor);
          }};
}

}  // namespace tessel::primitives
