#include "libs/primitives/auto_stage_mem.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/stage_mem.h"

namespace tessel::primitives {
namespace {

using ir::Build;
using ir::Node;
using ir::Op;

// A loop of the block, with its bounds where they are affine (a loop
// whose variable no index names may have any bounds).
struct InnerLoop {
  const Node* loop;
  std::optional<LinearForm> lo;
  std::optional<LinearForm> hi;
};

// `form` at its least (or greatest) over the block's loops: each loop's
// variable, innermost first (an inner loop's bounds may name an outer
// one), replaced by the end of its range the coefficient's sign picks.
absl::StatusOr<LinearForm> Extreme(LinearForm form,
                                   const std::vector<InnerLoop>& loops,
                                   bool greatest) {
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    const int64_t coefficient = form.coefficient(it->loop);
    if (coefficient == 0) continue;
    const bool high = (coefficient > 0) == greatest;
    const std::optional<LinearForm>& bound = high ? it->hi : it->lo;
    if (!bound) {
      return absl::InvalidArgumentError(
          absl::StrCat("auto_stage_mem: the bounds of loop '", it->loop->name(),
                       "' are not affine"));
    }
    form = form.Substituted(
        it->loop, high ? bound->Plus(LinearForm::Constant(-1)) : *bound);
  }
  return form;
}

bool NamesALoop(const LinearForm& form, const std::vector<InnerLoop>& loops) {
  for (const InnerLoop& loop : loops) {
    if (form.coefficient(loop.loop) != 0) return true;
  }
  return false;
}

// What the accesses span in one dimension: the least and the greatest
// index, and whether every access names one index that no loop of the
// block changes (then the dimension is that point).
struct Extent {
  std::optional<LinearForm> least;
  std::optional<LinearForm> greatest;
  std::optional<LinearForm> point;
  bool one_point = true;
};

// Merges `candidate` into `bound` (the least when `least`): the two must
// differ by a constant to be ordered.
absl::Status Merge(std::optional<LinearForm>& bound,
                   const LinearForm& candidate, bool least,
                   const Node& buffer) {
  if (!bound) {
    bound = candidate;
    return absl::OkStatus();
  }
  const LinearForm difference = candidate.Plus(bound->Times(-1));
  if (!difference.terms().empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "auto_stage_mem: the accesses of '", buffer.name(),
        "' in the block have extremes that do not differ by a constant"));
  }
  if ((difference.constant() < 0) == least && difference.constant() != 0) {
    bound = candidate;
  }
  return absl::OkStatus();
}

// Adds one access's selector in a dimension to `extent`: the index `lo`
// (`hi` null), or the interval [lo, hi) of a window.
absl::Status AddRange(Extent& extent, OpaqueTerms& forms, const Node& lo,
                      const Node* hi, const std::vector<InnerLoop>& loops,
                      const Node& buffer) {
  std::optional<LinearForm> low = forms.Form(lo);
  std::optional<LinearForm> high = hi == nullptr ? low : forms.Form(*hi);
  if (!low || !high) {
    return absl::InvalidArgumentError(
        absl::StrCat("auto_stage_mem: an index of '", buffer.name(),
                     "' in the block is not affine: '",
                     NodeText(hi == nullptr ? lo : *hi), "'"));
  }
  if (hi != nullptr) *high = high->Plus(LinearForm::Constant(-1));
  const bool point = hi == nullptr && !NamesALoop(*low, loops);
  if (point &&
      (!extent.point || (extent.point->Plus(low->Times(-1))).is_zero())) {
    extent.point = *low;
  } else {
    extent.one_point = false;
  }
  absl::StatusOr<LinearForm> least = Extreme(*low, loops, false);
  if (!least.ok()) return least.status();
  absl::StatusOr<LinearForm> greatest = Extreme(*high, loops, true);
  if (!greatest.ok()) return greatest.status();
  if (absl::Status s = Merge(extent.least, *least, true, buffer); !s.ok()) {
    return s;
  }
  return Merge(extent.greatest, *greatest, false, buffer);
}

}  // namespace

absl::StatusOr<Node*> AccessedWindow(ir::Module& module,
                                     const ir::BlockCursor& block,
                                     const Node& buffer) {
  if (!block.is_valid()) return block.status();
  const size_t rank = buffer.declared_type().dims().size();
  if (rank == 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("auto_stage_mem stages a window of a tensor; '",
                     buffer.name(), "' is a scalar"));
  }
  absl::flat_hash_set<const Node*> block_loops;
  for (Node* stmt : block.statements()) {
    ir::Walk(*stmt, [&](Node& node) {
      if (node.is(Op::kFor)) block_loops.insert(&node);
    });
  }
  // Terms of sizes only (`(/ N 64)`) are variables of their own.
  OpaqueTerms forms(std::move(block_loops));
  std::vector<InnerLoop> loops;
  std::vector<Extent> extents(rank);
  absl::Status status;
  size_t refs = 0, accesses = 0;
  for (Node* stmt : block.statements()) {
    ir::Walk(*stmt, [&](Node& node) {
      if (!status.ok()) return;
      if (node.is(Op::kFor)) {
        loops.push_back({&node, forms.Form(*node.operand(0)),
                         forms.Form(*node.operand(1))});
      } else if (node.is(Op::kRef) && node.def() == &buffer) {
        ++refs;
      } else if (node.is(Op::kLoad) && ir::LoadView(node).buffer() == &buffer) {
        ++accesses;
        auto indices = ir::LoadView(node).indices();
        for (size_t d = 0; d < rank && status.ok(); ++d) {
          status =
              AddRange(extents[d], forms, *indices[d], nullptr, loops, buffer);
        }
      } else if (node.is(Op::kWindow) &&
                 ir::WindowView(node).buffer() == &buffer) {
        ++accesses;
        auto selectors = ir::WindowView(node).selectors();
        for (size_t d = 0; d < rank && status.ok(); ++d) {
          Node& selector = *selectors[d];
          status = selector.is(Op::kInterval)
                       ? AddRange(extents[d], forms, *selector.operand(0),
                                  selector.operand(1), loops, buffer)
                       : AddRange(extents[d], forms, selector, nullptr, loops,
                                  buffer);
        }
      }
    });
  }
  if (!status.ok()) return status;
  if (refs != accesses) {
    return absl::InvalidArgumentError(
        absl::StrCat("auto_stage_mem: the block names '", buffer.name(),
                     "' whole, not an element or a window of it"));
  }
  if (accesses == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "auto_stage_mem: the block does not access '", buffer.name(), "'"));
  }
  std::vector<Node*> selectors;
  bool all_points = true;
  for (const Extent& extent : extents) {
    if (extent.one_point) {
      selectors.push_back(forms.Build(module, *extent.point));
      continue;
    }
    all_points = false;
    selectors.push_back(Build::Interval(
        module, forms.Build(module, *extent.least),
        forms.Build(module, extent.greatest->Plus(LinearForm::Constant(1)))));
  }
  return all_points ? Build::Load(module, buffer, selectors)
                    : Build::Window(module, buffer, selectors);
}

absl::Status AutoStageMem(ir::Module& module, const ir::BlockCursor& block,
                          const Node& buffer, const std::string& new_buf_name,
                          bool accum) {
  absl::StatusOr<Node*> window = AccessedWindow(module, block, buffer);
  if (!window.ok()) return window.status();
  return StageMem(module, block, **window, new_buf_name, accum);
}

PrimitiveSpec AutoStageMemSpec() {
  return {"auto_stage_mem",
          {{"block", ArgKind::kBlock, std::nullopt},
           {"buff", ArgKind::kAlloc, std::nullopt},
           {"new_buff_name", ArgKind::kString, std::nullopt},
           {"accum", ArgKind::kBool, "False"}},
          [](Target& target, const Args& args) {
            auto buffer = BufferAt(args["buff"].cursor, "auto_stage_mem",
                                   /*params=*/true);
            if (!buffer.ok()) return buffer.status();
            return AutoStageMem(target.module, args["block"].block, **buffer,
                                args["new_buff_name"].text,
                                args["accum"].bool_value);
          }};
}

}  // namespace tessel::primitives
