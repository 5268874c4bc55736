#include "libs/primitives/reorder_stmts.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

absl::StatusOr<ir::BlockCursor> ReorderStmts(ir::Module& module,
                                             const ir::BlockCursor& block) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  if (block.size() != 2) {
    return absl::InvalidArgumentError(
        absl::StrCat("reorder_stmts: expected a block of two statements, not ",
                     block.size()));
  }
  std::vector<Node*> stmts = block.statements();
  if (absl::Status status =
          NoScopeCrossing({stmts[0]}, {stmts[1]}, "reorder_stmts");
      !status.ok()) {
    return status;
  }
  effects::ProcAnalysis analysis(*ir::FormOf(stmts[0]));
  const poly::ProcModel& model = analysis.model();
  auto first = effects::EffectsOf(model, {stmts[0]});
  if (!first.ok()) return first.status();
  auto second = effects::EffectsOf(model, {stmts[1]});
  if (!second.ok()) return second.status();
  auto clash = effects::FindConflictInSharedIteration(
      model, *first, *second, effects::LoopsAround(*stmts[0]).size());
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "reorder_stmts: the statements do not commute: ", **clash));
  }
  ir::Cursor s1(module, stmts[0]), s2(module, stmts[1]);
  if (absl::Status status = s2.as_block().MoveTo(s1.before()); !status.ok()) {
    return status;
  }
  return ir::BlockCursor(s2, s1);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return ReorderStmts(target.module, args["block"].block).status();
}

}  // namespace

PrimitiveSpec ReorderStmtsSpec() {
  return {"reorder_stmts", {{"block", ArgKind::kBlock, {}}}, &Run};
}

}  // namespace tessel::primitives
