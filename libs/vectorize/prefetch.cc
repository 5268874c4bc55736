#include "libs/vectorize/prefetch.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/transaction.h"
#include "libs/vectorize/lane_vectors.h"
#include "libs/vectorize/nest.h"
#include "libs/vectorize/read_strides.h"

namespace tessel::vectorize {
namespace {

using primitives::LinearForm;

// The bytes of a cache line of the targets' cores.
constexpr int64_t kLineBytes = 64;

// The longest row of a copy that PrefetchCopies prefetches: longer rows
// are read in sequence for long enough that the hardware's prefetchers
// follow them, and each line would take a statement of its own.
constexpr int64_t kMaxPrefetchedRowBytes = 4 * kLineBytes;

// The indices of `read` at the tile's first row, lane and tap, `ahead`
// steps of `step` later; nullopt unless the lanes index its last dimension
// alone, with coefficient 1, and the rows index none.
std::optional<std::vector<LinearForm>> SharedRowAhead(ir::Node& read,
                                                      const TileLoops& loops,
                                                      const ir::Node& step,
                                                      int64_t ahead) {
  absl::Span<ir::Node* const> indices = ir::LoadView(read).indices();
  std::vector<LinearForm> forms;
  for (size_t d = 0; d < indices.size(); ++d) {
    std::optional<LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value()) return std::nullopt;
    const bool last = d + 1 == indices.size();
    if (form->coefficient(loops.lanes) != (last ? 1 : 0)) return std::nullopt;
    for (ir::Node* loop : {loops.rows, loops.window}) {
      if (loop == nullptr) continue;
      if (loop == loops.rows && form->coefficient(loop) != 0) {
        return std::nullopt;
      }
      form = form->Substituted(
          loop, LinearForm::Constant(LiteralOf(*ir::ForView(*loop).lo())));
    }
    form = form->Substituted(
        loops.lanes,
        LinearForm::Constant(LiteralOf(*ir::ForView(*loops.lanes).lo())));
    forms.push_back(form->Substituted(
        &step, LinearForm::Of(&step).Plus(LinearForm::Constant(ahead))));
  }
  if (forms.empty()) return std::nullopt;
  return forms;
}

// One `(prefetch B ...)` per cache line of `row_bytes` from the element
// at `forms` of `buffer`, along its last dimension.
void AppendLinePrefetches(ir::Module& module, const ir::Node& buffer,
                          const std::vector<LinearForm>& forms,
                          int64_t row_bytes, int64_t elem_bytes,
                          std::vector<ir::Node*>& prefetches) {
  for (int64_t offset = 0; offset < row_bytes; offset += kLineBytes) {
    std::vector<ir::Node*> indices;
    for (size_t d = 0; d < forms.size(); ++d) {
      LinearForm form = forms[d];
      if (d + 1 == forms.size()) {
        form = form.Plus(LinearForm::Constant(offset / elem_bytes));
      }
      indices.push_back(form.Build(module));
    }
    prefetches.push_back(ir::Build::Prefetch(module, buffer, indices));
  }
}

bool HasLiteralBounds(const ir::Node& loop) {
  return loop.operand(0)->is(ir::Op::kConst) &&
         loop.operand(1)->is(ir::Op::kConst);
}

// The prefetches that head each step of `outer` where it is the outer
// loop of a copy whose rows lie apart (PrefetchCopies), `ahead` steps
// later; none otherwise.
std::vector<ir::Node*> CopyRowPrefetches(ir::Module& module, ir::Node& outer,
                                         int64_t ahead) {
  std::vector<ir::Node*> prefetches;
  absl::Span<ir::Node* const> outer_body = ir::ForView(outer).body();
  if (outer_body.size() != 1 || !outer_body[0]->is(ir::Op::kFor)) {
    return prefetches;
  }
  ir::Node& row = *outer_body[0];
  absl::Span<ir::Node* const> row_body = ir::ForView(row).body();
  if (row_body.size() != 1 || !row_body[0]->is(ir::Op::kAssign) ||
      !HasLiteralBounds(outer) || !HasLiteralBounds(row) ||
      TripOf(outer) <= ahead) {
    return prefetches;
  }
  ir::Node& read = *row_body[0]->operand(1);
  if (!read.is(ir::Op::kLoad)) return prefetches;
  const ir::Node& buffer = *ir::LoadView(read).buffer();
  const int64_t elem_bytes = ElemTypeBytes(read.type().elem());
  const int64_t row_bytes = TripOf(row) * elem_bytes;
  std::optional<int64_t> stride = ReadStrideBytes(read, outer);
  if (row_bytes > kMaxPrefetchedRowBytes || !stride.has_value() ||
      *stride <= row_bytes) {
    return prefetches;
  }
  // The row's first element, `ahead` steps later; the inner loop must
  // read the row forwards along the last dimension.
  absl::Span<ir::Node* const> indices = ir::LoadView(read).indices();
  std::vector<LinearForm> forms;
  for (size_t d = 0; d < indices.size(); ++d) {
    std::optional<LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value() ||
        form->coefficient(&row) != (d + 1 == indices.size() ? 1 : 0)) {
      return prefetches;
    }
    forms.push_back(form->Substituted(&row, LinearForm::Constant(
                                                LiteralOf(*row.operand(0))))
                        .Substituted(&outer, LinearForm::Of(&outer).Plus(
                                                 LinearForm::Constant(ahead))));
  }
  if (forms.empty()) return prefetches;
  AppendLinePrefetches(module, buffer, forms, row_bytes, elem_bytes,
                       prefetches);
  return prefetches;
}

}  // namespace

std::vector<ir::Node*> TilePrefetches(ir::Module& module, ir::Node& stmt,
                                      const TileLoops& loops,
                                      const Strategy& strategy) {
  std::vector<ir::Node*> prefetches;
  if (strategy.prefetch == 0 || loops.prefetched == nullptr ||
      !stmt.is(ir::Op::kReduce)) {
    return prefetches;
  }
  ir::Node& tile = loops.window != nullptr ? *loops.window
                   : loops.rows != nullptr ? *loops.rows
                                           : *loops.lanes;
  ir::Node* step = tile.parent();
  if (loops.hoist == &tile || step == nullptr || !step->is(ir::Op::kFor)) {
    return prefetches;
  }
  const int64_t lanes = TripOf(*loops.lanes);
  const int64_t per_step =
      (loops.rows != nullptr ? TripOf(*loops.rows) : 1) *
      static_cast<int64_t>(
          LaneVectors(lanes, strategy.width, loops.partial_tail).size()) *
      (loops.window != nullptr ? TripOf(*loops.window) : 1);
  const int64_t ahead = (strategy.prefetch + per_step - 1) / per_step;
  if (TripOf(*step) <= ahead) return prefetches;
  std::vector<ir::Node*> reads;
  LoadsIn(*stmt.operand(1), reads);
  // The rows already prefetched, by tensor: a read repeated in the
  // statement is prefetched once.
  std::vector<std::pair<const ir::Node*, std::vector<LinearForm>>> seen;
  for (ir::Node* read : reads) {
    const ir::Node& buffer = *ir::LoadView(*read).buffer();
    if (&buffer != loops.prefetched) continue;
    const int64_t elem_bytes = ElemTypeBytes(read->type().elem());
    const int64_t row_bytes = lanes * elem_bytes;
    std::optional<int64_t> stride = ReadStrideBytes(*read, *step);
    if (!stride.has_value() || *stride <= row_bytes) continue;
    auto forms = SharedRowAhead(*read, loops, *step, ahead);
    if (!forms.has_value() ||
        std::find(seen.begin(), seen.end(), std::pair{&buffer, *forms}) !=
            seen.end()) {
      continue;
    }
    seen.emplace_back(&buffer, *forms);
    AppendLinePrefetches(module, buffer, *forms, row_bytes, elem_bytes,
                         prefetches);
  }
  return prefetches;
}

absl::Status PrefetchCopies(ir::Module& module, ir::Node& proc,
                            const Strategy& strategy) {
  if (strategy.prefetch_copies == 0) return absl::OkStatus();
  std::vector<ir::Node*> loops;
  ir::Walk(proc, [&](ir::Node& node) {
    if (node.is(ir::Op::kFor)) loops.push_back(&node);
  });
  primitives::Transaction tx(module);
  bool any = false;
  for (ir::Node* loop : loops) {
    std::vector<ir::Node*> prefetches =
        CopyRowPrefetches(module, *loop, strategy.prefetch_copies);
    const size_t start = ir::GapCursor::Start(module, *loop).position();
    for (size_t i = 0; i < prefetches.size(); ++i) {
      tx.Insert(loop, start + i, prefetches[i]);
    }
    any = any || !prefetches.empty();
  }
  if (!any) return absl::OkStatus();
  return tx.Commit(proc, "prefetching the rows of packing copies");
}

}  // namespace tessel::vectorize
