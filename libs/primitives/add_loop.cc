#include "libs/primitives/add_loop.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

absl::StatusOr<ir::Cursor> AddLoop(ir::Module& module,
                                   const ir::BlockCursor& block,
                                   const std::string& iter_name, const Node& hi,
                                   bool guard) {
  if (absl::Status status = block.status(); !status.ok()) return status;
  if (block.empty()) {
    return absl::InvalidArgumentError("add_loop: the block is empty");
  }
  Node& proc = *ir::FormOf(block.front().node());
  if (ir::FreshName(module, proc, iter_name) != iter_name) {
    return absl::InvalidArgumentError(
        absl::StrCat("add_loop: the name '", iter_name, "' is taken"));
  }
  // What the block declares becomes the loop's; nothing after it may use
  // it.
  std::vector<Node*> later;
  for (ir::Cursor next = block.back().next(); next.is_valid();
       next = next.next()) {
    later.push_back(next.node());
  }
  if (absl::Status status =
          NoScopeCrossing(block.statements(), later, "add_loop");
      !status.ok()) {
    return status;
  }
  if (!guard) {
    effects::ProcAnalysis analysis(proc);
    auto effects = effects::EffectsOf(analysis.model(), block.statements());
    if (!effects.ok()) return effects.status();
    auto repeat = effects::FindNotIdempotent(analysis.model(), *effects);
    if (!repeat.ok()) return repeat.status();
    if (repeat->has_value()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "add_loop: the block is not idempotent (add guard=True): ",
          **repeat));
    }
  }

  // Built in place, so that the model sees the bound where it is; undone
  // when the loop may not run.
  Node* loop = ir::Build::For(module, iter_name, ir::Build::Int(module, 0),
                              module.Clone(&hi), {});
  ir::Cursor cursor(module, loop);
  block.front().InsertBefore(loop);
  ir::GapCursor into = ir::GapCursor::End(module, *loop);
  if (guard) {
    Node* zero = ir::Build::Eq(module, ir::Build::Ref(module, *loop),
                               ir::Build::Int(module, 0));
    Node* branch = ir::Build::If(module, zero, {});
    module.Append(loop, branch);
    into = ir::GapCursor::End(module, *ir::IfView(*branch).then_block());
  }
  if (absl::Status status = block.MoveTo(into); !status.ok()) return status;
  effects::ProcAnalysis analysis(proc);
  auto empty = MayRunNone(analysis.model(), *loop);
  if (!empty.ok() || empty->has_value()) {
    absl::Status undo = block.MoveTo(cursor.before());
    cursor.Delete();
    if (!undo.ok()) return undo;
    if (!empty.ok()) return empty.status();
    return absl::FailedPreconditionError(absl::StrCat(
        "add_loop: the loop over '", iter_name, "' may run no iteration",
        (*empty)->empty() ? "" : absl::StrCat(" (at ", **empty, ")")));
  }
  return cursor;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return AddLoop(target.module, args["block"].block, args["iter_name"].text,
                 *args["hi_expr"].node, args["guard"].bool_value)
      .status();
}

}  // namespace

PrimitiveSpec AddLoopSpec() {
  return {"add_loop",
          {{"block", ArgKind::kBlock, {}},
           {"iter_name", ArgKind::kString, {}},
           {"hi_expr", ArgKind::kExprText, {}},
           {"guard", ArgKind::kBool, "False"}},
          &Run};
}

}  // namespace tessel::primitives
