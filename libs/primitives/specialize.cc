#include "libs/primitives/specialize.h"

#include <vector>

#include "absl/status/status.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::Status Specialize(ir::Module& module, const ir::BlockCursor& block,
                        const std::vector<const Node*>& conds) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  if (block.empty()) {
    return absl::InvalidArgumentError("specialize: expected statements");
  }
  if (conds.empty()) {
    return absl::InvalidArgumentError("specialize: expected a condition");
  }
  std::vector<Node*> stmts = block.statements();
  auto copies = [&] {
    std::vector<Node*> out;
    for (const Node* stmt : stmts) out.push_back(module.Clone(stmt));
    return out;
  };
  // From the innermost if out: the last condition's else runs the original.
  std::vector<std::vector<Node*>> thens;
  for (size_t k = 0; k < conds.size(); ++k) thens.push_back(copies());
  ir::GapCursor gap = block.Delete();
  std::vector<Node*> orelse = stmts;
  Node* chain = nullptr;
  for (size_t k = conds.size(); k-- > 0;) {
    chain = Build::If(module, module.Clone(conds[k]), thens[k], orelse);
    orelse = {chain};
  }
  gap.Insert(chain);
  return absl::OkStatus();
}

namespace {

absl::Status RunSpecialize(Target& target, const Args& args) {
  return Specialize(target.module, args["block"].block, args["conds"].nodes);
}

}  // namespace

PrimitiveSpec SpecializeSpec() {
  return {"specialize",
          {{"block", ArgKind::kBlock, std::nullopt},
           {"conds", ArgKind::kExprTexts, std::nullopt}},
          &RunSpecialize};
}

}  // namespace tessel::primitives
