#include "libs/primitives/cut_loop.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "isl/cpp.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/poly/model.h"
#include "libs/poly/poly.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {

using ir::Node;

absl::StatusOr<ir::Cursor> CutLoop(ir::Module& module, const ir::Cursor& loop,
                                   const Node& cut) {
  if (absl::Status status = loop.status(); !status.ok()) return status;
  Node* old = loop.node();
  if (!old->is(ir::Op::kFor)) {
    return absl::InvalidArgumentError("cut_loop: expected a loop");
  }
  {
    poly::Context context;
    poly::ProcModel model(isl::ctx(context.get()), *loop.proc().node());
    std::vector<isl::pw_aff> values;
    for (const Node* expr : std::initializer_list<const Node*>{
             old->operand(0), &cut, old->operand(1)}) {
      absl::StatusOr<isl::pw_aff> value = model.Affine(*expr, *old);
      if (!value.ok()) return value.status();
      values.push_back(*value);
    }
    auto violation = model.FindViolation(
        *old, values, [](const std::vector<isl::pw_aff>& v) {
          return v[1].lt_set(v[0]).unite(v[1].gt_set(v[2]));
        });
    if (!violation.ok()) return violation.status();
    if (violation->has_value()) {
      const poly::Violation& at = **violation;
      return absl::FailedPreconditionError(absl::StrCat(
          "cut_loop: the cut point of loop '", old->name(),
          "' must lie between its bounds, but it can be ", at.values[1],
          " with bounds ", at.values[0], " and ", at.values[2],
          at.at.empty() ? "" : absl::StrCat(" (at ", at.at, ")")));
    }
  }
  Node* second = module.Clone(old);
  module.Replace(second->operand(0), SimplifyExpr(module, cut));
  module.Replace(old->operand(1), SimplifyExpr(module, cut));
  loop.InsertAfter(second);
  return ir::Cursor(module, second);
}

namespace {

absl::Status RunCutLoop(Target& target, const Args& args) {
  return CutLoop(target.module, args["loop_cursor"].cursor,
                 *args["cut_point"].node)
      .status();
}

}  // namespace

PrimitiveSpec CutLoopSpec() {
  return {"cut_loop",
          {{"loop_cursor", ArgKind::kLoop, std::nullopt},
           {"cut_point", ArgKind::kExprText, std::nullopt}},
          &RunCutLoop};
}

}  // namespace tessel::primitives
