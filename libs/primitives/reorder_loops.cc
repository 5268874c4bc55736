#include "libs/primitives/reorder_loops.h"

#include <optional>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

absl::StatusOr<ir::Cursor> ReorderLoops(ir::Module& module,
                                        const ir::Cursor& outer) {
  auto pair = NestedLoops(outer, "reorder_loops");
  if (!pair.ok()) return pair.status();
  auto [outer_loop, inner_loop] = *pair;
  ir::ForView o(*outer_loop), in(*inner_loop);
  for (Node* bound : {in.lo(), in.hi()}) {
    if (Uses(*bound, *outer_loop)) {
      return absl::FailedPreconditionError(
          absl::StrCat("reorder_loops: the bounds of loop '", in.var(),
                       "' depend on the outer loop variable '", o.var(), "'"));
    }
  }

  effects::ProcAnalysis analysis(*outer.proc().node());
  const poly::ProcModel& model = analysis.model();
  auto body = effects::EffectsOf(model, in.body());
  if (!body.ok()) return body.status();
  if (absl::Status status = BoundsCommute(model, {outer_loop, inner_loop},
                                          *body, "reorder_loops");
      !status.ok()) {
    return status;
  }
  size_t depth = effects::LoopsAround(*outer_loop).size();
  auto flipped = effects::InstancePairs(
      model, *body, *body, depth,
      {effects::DimCmp{depth, effects::Cmp::kLess},
       effects::DimCmp{depth + 1, effects::Cmp::kGreater}});
  if (!flipped.ok()) return flipped.status();
  auto clash = effects::FindConflict(model, *body, *body, *flipped);
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "reorder_loops: iterations of '", o.var(), "' and '", in.var(),
        "' whose order the reordering flips do not commute: ", **clash));
  }

  Node* new_inner = LoopAround(module, *outer_loop, in.body());
  Node* new_outer = LoopAround(module, *inner_loop, {new_inner});
  module.Replace(outer_loop, new_outer);
  module.Forward(inner_loop, new_inner);
  return ir::Cursor(module, new_outer);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return ReorderLoops(target.module, args["nested_loops"].cursor).status();
}

}  // namespace

PrimitiveSpec ReorderLoopsSpec() {
  return {"reorder_loops", {{"nested_loops", ArgKind::kLoopPair, {}}}, &Run};
}

}  // namespace tessel::primitives
