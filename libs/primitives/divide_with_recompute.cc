#include "libs/primitives/divide_with_recompute.h"

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/poly/model.h"
#include "libs/primitives/loop_support.h"
#include "libs/primitives/names.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

namespace {

// OK when outer_hi * stride <= hi, and outer_hi >= 1 where hi >= 1, at
// every instance of `loop`.
absl::Status TilesCover(const poly::ProcModel& model, Node& loop,
                        const Node& outer_hi, int64_t stride) {
  auto values = AffineAt(model,
                         {ir::ForView(loop).hi(), const_cast<Node*>(&outer_hi)},
                         loop,
                         "divide_with_recompute: cannot prove the tiles cover "
                         "the loop");
  if (!values.ok()) return values.status();
  auto uncovered = model.FindViolation(
      loop, *values, [&](const std::vector<isl::pw_aff>& v) {
        isl::pw_aff covered = v[1].mul(poly::ConstantOn(v[1], stride));
        isl::set too_many = v[0].lt_set(covered);
        isl::set none = v[0]
                            .ge_set(poly::ConstantOn(v[0], 1))
                            .intersect(v[1].le_set(poly::ConstantOn(v[1], 0)));
        return too_many.unite(none);
      });
  if (!uncovered.ok()) return uncovered.status();
  if (uncovered->has_value()) {
    const poly::Violation& at = **uncovered;
    return absl::FailedPreconditionError(absl::StrCat(
        "divide_with_recompute: ", at.values[1], " tiles of ", stride,
        " do not cover the loop's ", at.values[0], " iterations",
        at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")")));
  }
  return absl::OkStatus();
}

// OK when running the body's instances again, in any order, computes the
// same: each is idempotent and instances of different iterations commute.
absl::Status RecomputeSafe(const poly::ProcModel& model, Node& loop) {
  auto body = effects::EffectsOf(model, ir::ForView(loop).body());
  if (!body.ok()) return body.status();
  auto again = effects::FindNotIdempotent(model, *body);
  if (!again.ok()) return again.status();
  if (again->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "divide_with_recompute: the body is not idempotent: ", **again));
  }
  size_t depth = effects::LoopsAround(loop).size();
  auto pairs = effects::InstancePairs(
      model, *body, *body, depth, {effects::DimCmp{depth, effects::Cmp::kLess}});
  if (!pairs.ok()) return pairs.status();
  auto clash = effects::FindConflict(model, *body, *body, *pairs);
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "divide_with_recompute: iterations of '", loop.name(),
        "' do not commute, so re-running one out of order changes it: ",
        **clash));
  }
  return BoundsCommute(model, {&loop}, *body, "divide_with_recompute");
}

}  // namespace

absl::Status DivideWithRecompute(ir::Module& module,
                                 const ir::Cursor& loop_cursor,
                                 const Node& outer_hi, int64_t outer_stride,
                                 const std::vector<std::string>& new_iters) {
  auto loop = LoopAt(loop_cursor, "divide_with_recompute");
  if (!loop.ok()) return loop.status();
  ir::ForView view(**loop);
  if (outer_stride < 1 || new_iters.size() != 2 ||
      new_iters[0] == new_iters[1]) {
    return absl::InvalidArgumentError(
        "divide_with_recompute: expected a positive stride and two different "
        "names");
  }
  Node& proc = *loop_cursor.proc().node();
  for (const std::string& name : new_iters) {
    if (absl::Status s =
            CheckNewName(module, proc, name, "divide_with_recompute");
        !s.ok()) {
      return s;
    }
  }
  Node* lo = SimplifyExpr(module, *view.lo());
  if (!lo->is(ir::Op::kConst) || lo->int_value() != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "divide_with_recompute: loop '", view.var(), "' must start at 0"));
  }
  if (ir::AnyNode(outer_hi,
                  [](const Node& n) { return n.is(ir::Op::kReadConfig); })) {
    return absl::InvalidArgumentError(
        "divide_with_recompute: outer_hi must not read configuration");
  }
  {
    effects::ProcAnalysis analysis(proc);
    const poly::ProcModel& model = analysis.model();
    if (absl::Status s = RecomputeSafe(model, **loop); !s.ok()) return s;
    if (absl::Status s = TilesCover(model, **loop, outer_hi, outer_stride);
        !s.ok()) {
      return s;
    }
  }
  Node* stride = Build::Int(module, outer_stride);
  Node* inner_hi = SimplifyExpr(
      module,
      *Build::Add(module, module.Clone(stride),
                  Build::Sub(module, module.Clone(view.hi()),
                             Build::Mul(module, module.Clone(&outer_hi),
                                        module.Clone(stride)))));
  Node* inner = Build::For(module, new_iters[1], Build::Int(module, 0),
                           inner_hi, {});
  Node* outer = Build::For(module, new_iters[0], Build::Int(module, 0),
                           module.Clone(&outer_hi), {});
  Node* index = SimplifyExpr(
      module, *Build::Add(module,
                          Build::Mul(module, module.Clone(stride),
                                     Build::Ref(module, *outer)),
                          Build::Ref(module, *inner)));
  for (const Node* stmt : view.body()) {
    module.Append(inner, ir::Substitute(module, module.Clone(stmt), *loop,
                                        *index));
  }
  module.Append(outer, inner);
  module.Replace(*loop, outer);
  return absl::OkStatus();
}

PrimitiveSpec DivideWithRecomputeSpec() {
  return {"divide_with_recompute",
          {{"loop_cursor", ArgKind::kLoop, std::nullopt},
           {"outer_hi", ArgKind::kExprText, std::nullopt},
           {"outer_stride", ArgKind::kInt, std::nullopt},
           {"new_iters", ArgKind::kNames, std::nullopt}},
          [](Target& target, const Args& args) {
            return DivideWithRecompute(
                target.module, args["loop_cursor"].cursor,
                *args["outer_hi"].node, args["outer_stride"].int_value,
                args["new_iters"].names);
          }};
}

}  // namespace tessel::primitives
