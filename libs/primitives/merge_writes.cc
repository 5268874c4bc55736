#include "libs/primitives/merge_writes.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/write_support.h"

namespace tessel::primitives {

using ir::Node;
using ir::Op;

namespace {

bool IsWrite(const Node& stmt) {
  return stmt.is(Op::kAssign) || stmt.is(Op::kReduce);
}

}  // namespace

absl::Status MergeWrites(ir::Module& module, const ir::BlockCursor& block) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  std::vector<Node*> stmts = block.statements();
  if (stmts.size() != 2 || !IsWrite(*stmts[0]) || !IsWrite(*stmts[1])) {
    return absl::InvalidArgumentError(
        "merge_writes expects a block of two assignments or reductions");
  }
  const Node& first = *stmts[0];
  const Node& second = *stmts[1];
  const Node& location = *first.operand(0);
  if (!SameLocation(location, *second.operand(0))) {
    return absl::InvalidArgumentError(absl::StrCat(
        "merge_writes: the statements write different locations, '",
        NodeText(location), "' and '", NodeText(*second.operand(0)), "'"));
  }
  const Node& buffer = BufferOf(location);
  if (const Node* read = ReadOf(*second.operand(1), buffer)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "merge_writes: the second value reads '",
        NodeText(*read),
        "', which the first statement may have written"));
  }
  Node* merged;
  if (second.is(Op::kAssign)) {
    merged = module.Clone(&second);
  } else {
    if (first.is(Op::kReduce)) {
      if (absl::Status status =
              CheckExactRegrouping(location, Regrouping::kSum, "merge_writes");
          !status.ok()) {
        return status;
      }
    }
    Node* sum = ir::Build::Add(module, module.Clone(first.operand(1)),
                               module.Clone(second.operand(1)));
    merged = first.is(Op::kAssign)
                 ? ir::Build::Assign(module, module.Clone(&location), sum)
                 : ir::Build::Reduce(module, module.Clone(&location), sum);
  }
  block.Replace({merged});
  return absl::OkStatus();
}

PrimitiveSpec MergeWritesSpec() {
  return {"merge_writes",
          {{"block_cursor", ArgKind::kBlock, std::nullopt}},
          [](Target& target, const Args& args) {
            return MergeWrites(target.module, args["block_cursor"].block);
          }};
}

}  // namespace tessel::primitives
