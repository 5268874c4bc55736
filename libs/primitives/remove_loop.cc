#include "libs/primitives/remove_loop.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

absl::StatusOr<ir::BlockCursor> RemoveLoop(ir::Module& module,
                                           const ir::Cursor& loop) {
  auto at = LoopAt(loop, "remove_loop");
  if (!at.ok()) return at.status();
  ir::ForView view(**at);
  std::vector<Node*> body(view.body().begin(), view.body().end());
  if (body.empty()) {
    return absl::InvalidArgumentError("remove_loop: the loop has no body");
  }
  for (Node* stmt : body) {
    if (Uses(*stmt, **at)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "remove_loop: the body uses the loop variable '", view.var(), "'"));
    }
  }
  effects::ProcAnalysis analysis(*ir::FormOf(*at));
  const poly::ProcModel& model = analysis.model();
  auto effects = effects::EffectsOf(model, body);
  if (!effects.ok()) return effects.status();
  auto repeat = effects::FindNotIdempotent(model, *effects);
  if (!repeat.ok()) return repeat.status();
  if (repeat->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("remove_loop: the body is not idempotent: ", **repeat));
  }
  auto empty = MayRunNone(model, **at);
  if (!empty.ok()) return empty.status();

  for (Node* stmt : body) module.Detach(stmt);
  std::vector<Node*> replacement = body;
  if (empty->has_value()) {
    replacement = {ir::Build::If(
        module,
        ir::Build::Lt(module, module.Clone(view.lo()), module.Clone(view.hi())),
        body)};
  }
  return loop.as_block().Replace(replacement);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return RemoveLoop(target.module, args["loop"].cursor).status();
}

}  // namespace

PrimitiveSpec RemoveLoopSpec() {
  return {"remove_loop", {{"loop", ArgKind::kLoop, {}}}, &Run};
}

}  // namespace tessel::primitives
