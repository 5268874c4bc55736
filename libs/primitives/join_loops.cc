#include "libs/primitives/join_loops.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/ir/syntax.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"
#include "libs/sexpr/printer.h"

namespace tessel::primitives {

using ir::Node;

namespace {

// OK when the bodies of `first` and `second` are the same; otherwise the
// first statement where they part.
absl::Status SameBodies(Node& first, Node& second) {
  absl::Span<Node* const> a = ir::ForView(first).body();
  absl::Span<Node* const> b = ir::ForView(second).body();
  if (ir::AlphaEquivalent(a, b, &first, &second)) return absl::OkStatus();
  size_t same = 0;
  while (same < a.size() && same < b.size() &&
         ir::AlphaEquivalent(a.first(same + 1), b.first(same + 1), &first,
                             &second)) {
    ++same;
  }
  if (same == a.size() || same == b.size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("join_loops: the loops' bodies differ: the first has ",
                     a.size(), " statements, the second ", b.size()));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("join_loops: the loops' bodies differ at statement ",
                   same + 1, ": ", PrintFlat(ir::WriteNode(*a[same])), " and ",
                   PrintFlat(ir::WriteNode(*b[same]))));
}

// OK when running `first` and then `second` (loops of one body, `second`
// after `first`) runs the iterations of one loop from the first's lower
// bound to the second's upper bound, wherever they run; the first instance
// where it does not otherwise.
absl::Status OneRange(const poly::ProcModel& model, Node& first, Node& second) {
  ir::ForView a(first), b(second);
  auto values = AffineAt(model, {a.lo(), a.hi(), b.lo(), b.hi()}, first,
                         "join_loops: cannot prove the loops' bounds adjacent");
  if (!values.ok()) return values.status();
  const std::vector<isl::pw_aff>& bounds = *values;
  auto ranges = [&](const poly::Violation& at) {
    return absl::StrCat(at.at.empty() ? "" : absl::StrCat(" at ", at.at), ": ",
                        a.var(), " in [", at.values[0], ", ", at.values[1],
                        ") then ", b.var(), " in [", at.values[2], ", ",
                        at.values[3], ")");
  };
  auto apart = model.FindViolation(
      first, bounds,
      [](const std::vector<isl::pw_aff>& v) { return v[1].ne_set(v[2]); });
  if (!apart.ok()) return apart.status();
  if (apart->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("join_loops: the first loop's upper bound must be the "
                     "second's lower bound, but they differ",
                     ranges(**apart)));
  }
  // [lo1, hi1) then [hi1, hi2) is [lo1, hi2) unless exactly one of them
  // runs backwards: the other's iterations are then not all of [lo1, hi2).
  auto backwards =
      model.FindViolation(first, bounds, [](const std::vector<isl::pw_aff>& v) {
        return v[0]
            .lt_set(v[1])
            .intersect(v[3].lt_set(v[1]))
            .unite(v[1].lt_set(v[0]).intersect(v[1].lt_set(v[3])));
      });
  if (!backwards.ok()) return backwards.status();
  if (backwards->has_value()) {
    return absl::FailedPreconditionError(
        absl::StrCat("join_loops: the loops do not run as one loop from the "
                     "first's lower bound to the second's upper bound",
                     ranges(**backwards)));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::Cursor> JoinLoops(ir::Module& module,
                                     const ir::Cursor& loop1,
                                     const ir::Cursor& loop2) {
  auto first = LoopAt(loop1, "join_loops");
  if (!first.ok()) return first.status();
  auto second = LoopAt(loop2, "join_loops");
  if (!second.ok()) return second.status();
  if (!(loop1.next() == loop2)) {
    return absl::InvalidArgumentError(
        "join_loops: the second loop must follow the first immediately");
  }
  if ((*first)->is_parallel() != (*second)->is_parallel()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "join_loops: one loop is parallel and the other is not: ",
        (*first)->is_parallel() ? "the first" : "the second",
        " is a for-par"));
  }
  if (absl::Status status = SameBodies(**first, **second); !status.ok()) {
    return status;
  }
  effects::ProcAnalysis analysis(*ir::FormOf(*first));
  const poly::ProcModel& model = analysis.model();
  ir::ForView a(**first), b(**second);
  std::vector<Node*> body(a.body().begin(), a.body().end());
  auto effects = effects::EffectsOf(model, body);
  if (!effects.ok()) return effects.status();
  if (absl::Status status =
          BoundsCommute(model, {*second}, *effects, "join_loops");
      !status.ok()) {
    return status;
  }
  if (absl::Status status = OneRange(model, **first, **second); !status.ok()) {
    return status;
  }

  Node* hi = b.hi();
  module.Detach(hi);
  module.Replace(a.hi(), hi);
  module.Detach(*second);
  module.Forward(*second, *first);
  return ir::Cursor(module, *first);
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return JoinLoops(target.module, args["loop1_cursor"].cursor,
                   args["loop2_cursor"].cursor)
      .status();
}

}  // namespace

PrimitiveSpec JoinLoopsSpec() {
  return {"join_loops",
          {{"loop1_cursor", ArgKind::kLoop, {}},
           {"loop2_cursor", ArgKind::kLoop, {}}},
          &Run};
}

}  // namespace tessel::primitives
