#include "libs/primitives/split_write.h"

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

absl::Status SplitWrite(ir::Module& module, const ir::Cursor& stmt) {
  if (absl::Status status = stmt.status(); !status.ok()) return status;
  const Node& write = *stmt.node();
  if ((!write.is(Op::kAssign) && !write.is(Op::kReduce)) ||
      !write.operand(1)->is(Op::kAdd)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "split_write expects an assignment or reduction of a sum, not '",
        NodeText(write), "'"));
  }
  const Node& location = *write.operand(0);
  const Node& sum = *write.operand(1);
  if (const Node* read = ReadOf(*sum.operand(1), BufferOf(location))) {
    return absl::FailedPreconditionError(absl::StrCat(
        "split_write: the sum's right operand reads '", NodeText(*read),
        "', which the first of the two writes may change"));
  }
  if (write.is(Op::kReduce)) {
    if (absl::Status status =
            CheckExactRegrouping(location, Regrouping::kSum, "split_write");
        !status.ok()) {
      return status;
    }
  }
  Node* first =
      write.is(Op::kAssign)
          ? ir::Build::Assign(module, module.Clone(&location),
                              module.Clone(sum.operand(0)))
          : ir::Build::Reduce(module, module.Clone(&location),
                              module.Clone(sum.operand(0)));
  Node* second = ir::Build::Reduce(module, module.Clone(&location),
                                   module.Clone(sum.operand(1)));
  stmt.as_block().Replace({first, second});
  return absl::OkStatus();
}

PrimitiveSpec SplitWriteSpec() {
  return {"split_write",
          {{"stmt", ArgKind::kStmt, std::nullopt}},
          [](Target& target, const Args& args) {
            return SplitWrite(target.module, args["stmt"].cursor);
          }};
}

}  // namespace tessel::primitives
