#include "libs/primitives/mult_loops.h"

#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"
#include "libs/primitives/names.h"
#include "libs/primitives/simplify_expr.h"

namespace tessel::primitives {

using ir::Build;
using ir::Node;

absl::StatusOr<ir::Cursor> MultLoops(ir::Module& module,
                                     const ir::Cursor& outer,
                                     const std::string& new_iter_name) {
  auto pair = NestedLoops(outer, "mult_loops");
  if (!pair.ok()) return pair.status();
  auto [outer_loop, inner_loop] = *pair;
  ir::ForView o(*outer_loop), in(*inner_loop);
  Node* trip = SimplifyExpr(
      module, *Build::Sub(module, module.Clone(in.hi()), module.Clone(in.lo())));
  if (!trip->is(ir::Op::kConst) || trip->int_value() < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("mult_loops: the trip count of the inner loop '", in.var(),
                     "' must be a positive literal"));
  }
  const Node& proc = *outer.proc().node();
  if (absl::Status status =
          CheckNewName(module, proc, new_iter_name, "mult_loops");
      !status.ok()) {
    return status;
  }
  const int64_t c = trip->int_value();
  Node* hi = SimplifyExpr(
      module, *Build::Mul(module,
                          Build::Sub(module, module.Clone(o.hi()),
                                     module.Clone(o.lo())),
                          Build::Int(module, c)));
  Node* loop = Build::For(module, new_iter_name, Build::Int(module, 0), hi, {});
  Node* i_value = SimplifyExpr(
      module, *Build::Add(module, module.Clone(o.lo()),
                          Build::Div(module, Build::Ref(module, *loop),
                                     Build::Int(module, c))));
  Node* j_value = SimplifyExpr(
      module, *Build::Add(module, module.Clone(in.lo()),
                          Build::Mod(module, Build::Ref(module, *loop),
                                     Build::Int(module, c))));
  // The statements move (a copy of each apart would leave a reference to
  // an alloc of the body bound to the original).
  std::vector<Node*> body(in.body().begin(), in.body().end());
  for (Node* stmt : body) {
    module.Detach(stmt);
    stmt = ir::Substitute(module, stmt, outer_loop, *i_value);
    stmt = ir::Substitute(module, stmt, inner_loop, *j_value);
    module.Append(loop, stmt);
  }
  module.Replace(outer_loop, loop);
  return ir::Cursor(module, loop);
}

PrimitiveSpec MultLoopsSpec() {
  return {"mult_loops",
          {{"nested_loops", ArgKind::kLoopPair, std::nullopt},
           {"new_iter_name", ArgKind::kString, std::nullopt}},
          [](Target& target, const Args& args) {
            return MultLoops(target.module, args["nested_loops"].cursor,
                             args["new_iter_name"].text)
                .status();
          }};
}

}  // namespace tessel::primitives
