#include "libs/primitives/fuse.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/fuse_if.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// OK when the bounds of `first` and `second` (loops of one body) are equal
// wherever they run; the first instance where they differ otherwise.
absl::Status SameBounds(const poly::ProcModel& model, Node& first,
                        Node& second) {
  ir::ForView a(first), b(second);
  auto bounds = AffineAt(model, {a.lo(), b.lo(), a.hi(), b.hi()}, first,
                         "fuse: cannot prove the loops' bounds equal");
  if (!bounds.ok()) return bounds.status();
  auto differ = model.FindViolation(
      first, *bounds, [](const std::vector<isl::pw_aff>& v) {
        return v[0].ne_set(v[1]).unite(v[2].ne_set(v[3]));
      });
  if (!differ.ok()) return differ.status();
  if (differ->has_value()) {
    const poly::Violation& at = **differ;
    return absl::FailedPreconditionError(absl::StrCat(
        "fuse: the loops' bounds differ", at.at.empty() ? "" : " at ", at.at,
        ": ", a.var(), " in [", at.values[0], ", ", at.values[2], "), ",
        b.var(), " in [", at.values[1], ", ", at.values[3], ")"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Cursor> Fuse(ir::Module& module, const ir::Cursor& stmt1,
                                const ir::Cursor& stmt2) {
  auto first = LoopAt(stmt1, "fuse");
  if (!first.ok()) return first.status();
  auto second = LoopAt(stmt2, "fuse");
  if (!second.ok()) return second.status();
  if (!(stmt1.next() == stmt2)) {
    return absl::InvalidArgumentError(
        "fuse: the second loop must follow the first immediately");
  }
  ir::ForView a(**first), b(**second);
  std::vector<Node*> body1(a.body().begin(), a.body().end());
  std::vector<Node*> body2(b.body().begin(), b.body().end());

  for (Node* declared : body2) {
    for (Node* other : body1) {
      if ((declared->is(ir::Op::kAlloc) || declared->is(ir::Op::kLet)) &&
          (other->is(ir::Op::kAlloc) || other->is(ir::Op::kLet)) &&
          declared->name() == other->name()) {
        return absl::FailedPreconditionError(
            absl::StrCat("fuse: both bodies declare '", declared->name(), "'"));
      }
    }
  }
  effects::ProcAnalysis analysis(*ir::FormOf(*first));
  const poly::ProcModel& model = analysis.model();
  if (absl::Status status = SameBounds(model, **first, **second);
      !status.ok()) {
    return status;
  }
  auto effects1 = effects::EffectsOf(model, body1);
  if (!effects1.ok()) return effects1.status();
  auto effects2 = effects::EffectsOf(model, body2);
  if (!effects2.ok()) return effects2.status();
  if (absl::Status status = BoundsCommute(model, {*second}, *effects1, "fuse");
      !status.ok()) {
    return status;
  }
  size_t dim = effects::LoopsAround(**first).size();
  auto moved =
      effects::InstancePairs(model, *effects1, *effects2, dim,
                             {effects::DimCmp{dim, effects::Cmp::kGreater}});
  if (!moved.ok()) return moved.status();
  auto clash = effects::FindConflict(model, *effects1, *effects2, *moved);
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fuse: the first body does not commute with the second's earlier "
        "iterations: ",
        **clash));
  }

  Node* ref = ir::Build::Ref(module, **first);
  for (Node* stmt : body2) {
    module.Detach(stmt);
    ir::Substitute(module, stmt, *second, *ref);
    module.Append(*first, stmt);
  }
  module.Detach(*second);
  module.Forward(*second, *first);
  return ir::Cursor(module, *first);
}

namespace {

// Two ifs fuse as Exo's fuse_if; anything else as loops.
absl::Status Run(Target& target, const Args& args) {
  const ir::Cursor& stmt1 = args["stmt1"].cursor;
  if (stmt1.is_valid() && stmt1->is(ir::Op::kIf)) {
    return FuseIf(target.module, stmt1, args["stmt2"].cursor).status();
  }
  return Fuse(target.module, stmt1, args["stmt2"].cursor).status();
}

}  // namespace

PrimitiveSpec FuseSpec() {
  return {"fuse",
          {{"stmt1", ArgKind::kStmt, {}}, {"stmt2", ArgKind::kStmt, {}}},
          &Run};
}

}  // namespace tessel::primitives
