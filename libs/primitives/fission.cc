#include "libs/primitives/fission.h"

#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/loop_support.h"

namespace tessel::primitives {
namespace {

using ir::Node;

// What the split separates, across all its levels.
struct Split {
  std::vector<Node*> loops;   // innermost first
  std::vector<Node*> before;  // the statements before the gap, any level
  std::vector<Node*> after;
};

absl::StatusOr<Split> SplitOf(const ir::GapCursor& gap, int64_t n_lifts) {
  if (absl::Status status = gap.status(); !status.ok()) return status;
  if (n_lifts < 1) {
    return absl::InvalidArgumentError("fission: n_lifts must be at least 1");
  }
  Split split;
  Node* owner = gap.owner();
  size_t position = gap.position();
  for (int64_t level = 0; level < n_lifts; ++level) {
    if (!owner->is(ir::Op::kFor)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "fission: lift ", level + 1, " of ", n_lifts,
          " is not out of a loop (fission lifts through loops only)"));
    }
    split.loops.push_back(owner);
    for (size_t i = ir::BodyStart(*owner); i < owner->num_operands(); ++i) {
      // At the first level the gap's position; then the loop lifted out of.
      if (i < position) split.before.push_back(owner->operand(i));
      if (i > position || (level == 0 && i == position)) {
        split.after.push_back(owner->operand(i));
      }
    }
    Node* parent = owner->parent();
    if (parent == nullptr) break;
    for (size_t i = 0; i < parent->num_operands(); ++i) {
      if (parent->operand(i) == owner) position = i;
    }
    owner = parent;
  }
  return split;
}

absl::Status Check(const Split& split) {
  if (absl::Status status =
          NoScopeCrossing(split.before, split.after, "fission");
      !status.ok()) {
    return status;
  }
  effects::ProcAnalysis analysis(*ir::FormOf(split.loops.front()));
  const poly::ProcModel& model = analysis.model();
  auto before = effects::EffectsOf(model, split.before);
  if (!before.ok()) return before.status();
  auto after = effects::EffectsOf(model, split.after);
  if (!after.ok()) return after.status();
  if (absl::Status status =
          BoundsCommute(model, split.loops, *before, "fission");
      !status.ok()) {
    return status;
  }
  // An instance before the gap in a later iteration of a split loop (the
  // shared iterations of the loops outside it equal) met one after the gap
  // in an earlier one: now it runs first.
  isl::union_map flipped = isl::union_map::empty(model.ctx());
  for (Node* loop : split.loops) {
    size_t dim = effects::LoopsAround(*loop).size();
    auto pairs =
        effects::InstancePairs(model, *before, *after, dim,
                               {effects::DimCmp{dim, effects::Cmp::kGreater}});
    if (!pairs.ok()) return pairs.status();
    flipped = flipped.unite(*pairs);
  }
  auto clash = effects::FindConflict(model, *before, *after, flipped);
  if (!clash.ok()) return clash.status();
  if (clash->has_value()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "fission: statements before the gap do not commute with those after "
        "it in earlier iterations: ",
        **clash));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ir::GapCursor> Fission(ir::Module& module,
                                      const ir::GapCursor& gap,
                                      int64_t n_lifts) {
  auto split = SplitOf(gap, n_lifts);
  if (!split.ok()) return split.status();
  if (absl::Status status = Check(*split); !status.ok()) return status;

  ir::GapCursor at = gap;
  for (Node* loop : split->loops) {
    ir::Cursor cursor(module, loop);
    bool at_start = !at.prev().is_valid();
    bool at_end = !at.next().is_valid();
    if (!at_start && !at_end) {
      auto body = ir::ForView(*loop).body();
      std::vector<Node*> rest(
          body.begin() + (at.position() - ir::BodyStart(*loop)), body.end());
      cursor.InsertAfter(LoopAround(module, *loop, rest));
    }
    at = at_start && !at_end ? cursor.before() : cursor.after();
  }
  return at;
}

namespace {

absl::Status Run(Target& target, const Args& args) {
  return Fission(target.module, args["gap"].gap, args["n_lifts"].int_value)
      .status();
}

}  // namespace

PrimitiveSpec FissionSpec() {
  return {"fission",
          {{"gap", ArgKind::kGap, {}}, {"n_lifts", ArgKind::kInt, "1"}},
          &Run};
}

}  // namespace tessel::primitives
