#include "libs/vectorize/layout.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/build.h"
#include "libs/ir/edit.h"
#include "libs/ir/forms.h"
#include "libs/ir/views.h"
#include "libs/primitives/buffer_uses.h"
#include "libs/primitives/divide_dim.h"
#include "libs/primitives/divide_loop.h"
#include "libs/primitives/eliminate_dead_code.h"
#include "libs/primitives/inline_copy.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/rearrange_dim.h"
#include "libs/primitives/simplify_expr.h"
#include "libs/primitives/stage_mem.h"
#include "libs/support/source.h"
#include "libs/vectorize/nest.h"

namespace tessel::vectorize {
namespace {

using primitives::LinearForm;

// The loop of `loops` that the written element's last index is, plus a
// constant, when no other index of it uses that loop.
const ir::Node* LaneCandidate(ir::Node& lhs,
                              const std::vector<ir::Node*>& loops) {
  if (!lhs.is(ir::Op::kLoad)) return nullptr;
  std::vector<ir::Node*> indices(ir::LoadView(lhs).indices().begin(),
                                 ir::LoadView(lhs).indices().end());
  if (indices.empty()) return nullptr;
  std::optional<LinearForm> last = AffineForm(*indices.back());
  if (!last.has_value()) return nullptr;
  const ir::Node* lane = nullptr;
  for (const ir::Node* loop : loops) {
    int64_t c = last->coefficient(loop);
    if (c == 0) continue;
    if (c != 1 || lane != nullptr) return nullptr;
    lane = loop;
  }
  if (lane == nullptr) return nullptr;
  for (size_t d = 0; d + 1 < indices.size(); ++d) {
    std::optional<LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value() || form->coefficient(lane) != 0) return nullptr;
  }
  return lane;
}

// The dimension of `read` that `lane` indexes when it indexes exactly one,
// with coefficient 1, that is not the last, and some loop of `loops`
// indexes none of `read`'s dimensions; else none, and none for a read of a
// `let`'s window, which stage_mem does not copy (IsStageable).
std::optional<size_t> DimensionToMove(ir::Node& read, const ir::Node& lane,
                                      const std::vector<ir::Node*>& loops) {
  if (!primitives::IsStageable(*ir::LoadView(read).buffer())) {
    return std::nullopt;
  }
  std::vector<LinearForm> forms;
  for (const ir::Node* index : ir::LoadView(read).indices()) {
    std::optional<LinearForm> form = AffineForm(*index);
    if (!form.has_value()) return std::nullopt;
    forms.push_back(*form);
  }
  std::optional<size_t> dim;
  for (size_t d = 0; d < forms.size(); ++d) {
    int64_t c = forms[d].coefficient(&lane);
    if (c == 0) continue;
    if (c != 1 || dim.has_value()) return std::nullopt;
    dim = d;
  }
  if (!dim.has_value() || *dim + 1 == forms.size()) return std::nullopt;
  for (const ir::Node* loop : loops) {
    bool indexes = false;
    for (const LinearForm& form : forms) {
      indexes = indexes || form.coefficient(loop) != 0;
    }
    if (!indexes) return dim;
  }
  return std::nullopt;
}

// The statement of `proc` that assigns an element of `buffer`.
ir::Node* AssignTo(ir::Node& proc, const ir::Node& buffer) {
  ir::Node* found = nullptr;
  ir::Walk(proc, [&](ir::Node& node) {
    if (found == nullptr && node.is(ir::Op::kAssign) &&
        node.operand(0)->is(ir::Op::kLoad) &&
        ir::LoadView(*node.operand(0)).buffer() == &buffer) {
      found = &node;
    }
  });
  return found;
}

absl::Status Rejected(const ir::Node& stmt, const ir::Node& buffer,
                      const absl::Status& status) {
  return absl::FailedPreconditionError(FormatDiagnostic(
      stmt.loc(), absl::StrCat("cannot vectorize: copying '", buffer.name(),
                               "' for the lanes: ", status.message())));
}

// The interval `read` touches in each of its dimensions over `loops`, the
// last bound excluded.
std::vector<std::pair<LinearForm, LinearForm>> IntervalsOf(
    ir::Node& read, const std::vector<ir::Node*>& loops) {
  std::vector<std::pair<LinearForm, LinearForm>> intervals;
  for (const ir::Node* index : ir::LoadView(read).indices()) {
    LinearForm lo = *AffineForm(*index);
    LinearForm hi = lo;
    for (ir::Node* loop : loops) {
      int64_t c = lo.coefficient(loop);
      if (c == 0) continue;
      ir::ForView view(*loop);
      auto first = LinearForm::Constant(LiteralOf(*view.lo()));
      auto last = LinearForm::Constant(LiteralOf(*view.hi()) - 1);
      lo = lo.Substituted(loop, c > 0 ? first : last);
      hi = hi.Substituted(loop, c > 0 ? last : first);
    }
    intervals.emplace_back(lo, hi.Plus(LinearForm::Constant(1)));
  }
  return intervals;
}

// `a - b` when it is a constant.
std::optional<int64_t> ConstantDifference(const LinearForm& a,
                                          const LinearForm& b) {
  LinearForm difference = a.Plus(b.Times(-1));
  if (!difference.terms().empty()) return std::nullopt;
  return difference.constant();
}

}  // namespace

ir::Node* BoxOf(ir::Module& module, ir::Node& read,
                const std::vector<ir::Node*>& loops, ir::Node& value) {
  const ir::Node* buffer = ir::LoadView(read).buffer();
  std::vector<std::pair<LinearForm, LinearForm>> box = IntervalsOf(read, loops);
  // stage_mem redirects every access of the tensor inside the loops: the
  // box holds the other reads of it as well, where the bounds compare.
  std::vector<ir::Node*> reads;
  LoadsIn(value, reads);
  for (ir::Node* other : reads) {
    if (other == &read || ir::LoadView(*other).buffer() != buffer) continue;
    std::vector<std::pair<LinearForm, LinearForm>> more =
        IntervalsOf(*other, loops);
    for (size_t d = 0; d < box.size() && d < more.size(); ++d) {
      std::optional<int64_t> below =
          ConstantDifference(more[d].first, box[d].first);
      std::optional<int64_t> above =
          ConstantDifference(more[d].second, box[d].second);
      if (below.has_value() && *below < 0) box[d].first = more[d].first;
      if (above.has_value() && *above > 0) box[d].second = more[d].second;
    }
  }
  std::vector<ir::Node*> selectors;
  for (const auto& [lo, hi] : box) {
    selectors.push_back(
        ir::Build::Interval(module, lo.Build(module), hi.Build(module)));
  }
  return ir::Build::Window(module, *ir::LoadView(read).buffer(), selectors);
}

ir::Node* AllocNamed(ir::Node& proc, const std::string& name) {
  ir::Node* found = nullptr;
  ir::Walk(proc, [&](ir::Node& node) {
    if (node.is(ir::Op::kAlloc) && node.name() == name) found = &node;
  });
  return found;
}

const ir::Node* LanesCopies::CopyInto(const ir::Node& buffer) const {
  for (const ir::Cursor& copy : statements) {
    if (copy.is_valid() &&
        ir::LoadView(*copy.node()->operand(0)).buffer() == &buffer) {
      return copy.node();
    }
  }
  return nullptr;
}

std::optional<std::vector<ir::Node*>> CopiesOf(const ir::Node& copy,
                                               const ir::Node* except) {
  const ir::Node& buffer = *ir::LoadView(*copy.operand(0)).buffer();
  std::vector<ir::Node*> readers;
  for (ir::Node* use : primitives::UsesOf(buffer)) {
    ir::Node* load = use->parent();
    if (load == copy.operand(0)) continue;
    bool inside = false;
    for (const ir::Node* node = load; node != nullptr && except != nullptr;
         node = node->parent()) {
      inside = inside || node == except;
    }
    if (inside) continue;
    ir::Node* reader = load->is(ir::Op::kLoad) ? load->parent() : nullptr;
    if (reader == nullptr || !reader->is(ir::Op::kAssign) ||
        reader->operand(1) != load) {
      return std::nullopt;
    }
    if (readers.empty() || readers.back() != reader) readers.push_back(reader);
  }
  return readers;
}

absl::StatusOr<bool> CopyReadsForLanes(ir::Module& module, ir::Node& proc,
                                       ir::Node& stmt, LanesCopies& copies) {
  if (!stmt.is(ir::Op::kReduce)) return false;
  std::vector<ir::Node*> loops = LoopsOf(stmt);
  if (loops.empty()) return false;
  const ir::Node* lane = LaneCandidate(*stmt.operand(0), loops);
  if (lane == nullptr) return false;
  bool copied = false;
  for (;;) {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    ir::Node* read = nullptr;
    std::optional<size_t> dim;
    for (ir::Node* candidate : reads) {
      dim = DimensionToMove(*candidate, *lane, loops);
      if (dim.has_value()) {
        read = candidate;
        break;
      }
    }
    if (read == nullptr) return copied;
    if (absl::Status status = CopyWithDimLast(module, proc, stmt, *read,
                                              static_cast<int64_t>(*dim),
                                              "_lanes", copies.statements);
        !status.ok()) {
      return status;
    }
    copied = true;
  }
}

absl::StatusOr<std::vector<ir::Cursor>> ForwardLanesCopies(
    ir::Module& module, ir::Node& proc, const LanesCopies& copies) {
  std::vector<ir::Cursor> statements;
  bool forwarded = false;
  for (const ir::Cursor& copy : copies.statements) {
    if (!copy.is_valid()) continue;
    ir::Node& buffer = *ir::LoadView(*copy.node()->operand(0)).buffer();
    std::optional<std::vector<ir::Node*>> readers =
        CopiesOf(*copy.node(), nullptr);
    if (!readers.has_value() || readers->empty() ||
        !primitives::InlineCopy(module, ir::Cursor(module, &buffer)).ok()) {
      statements.push_back(copy);
      continue;
    }
    forwarded = true;
    for (ir::Node* reader : *readers) statements.emplace_back(module, reader);
  }
  if (forwarded) {
    if (absl::Status status = primitives::Simplify(module, proc);
        !status.ok()) {
      return status;
    }
  }
  return statements;
}

absl::Status CopyWithDimLast(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                             ir::Node& read, int64_t dim,
                             absl::string_view suffix,
                             std::vector<ir::Cursor>& pending) {
  auto alloc = StageWithDimLast(
      module, proc, stmt, read,
      ir::Cursor(module, LoopsOf(stmt).front()).as_block(), dim, suffix);
  if (!alloc.ok()) return alloc.status();
  if (ir::Node* copy = AssignTo(proc, **alloc)) {
    pending.emplace_back(module, copy);
  }
  return absl::OkStatus();
}

absl::StatusOr<ir::Node*> StageWithDimLast(ir::Module& module, ir::Node& proc,
                                           ir::Node& stmt, ir::Node& access,
                                           const ir::BlockCursor& block,
                                           int64_t dim,
                                           absl::string_view suffix) {
  const ir::Node& buffer = *ir::LoadView(access).buffer();
  const int64_t rank =
      static_cast<int64_t>(ir::LoadView(access).indices().size());
  std::string name =
      ir::FreshName(module, proc, absl::StrCat(buffer.name(), suffix));
  ir::Node* window = BoxOf(module, access, LoopsOf(stmt), *stmt.operand(1));
  if (absl::Status status = primitives::StageMem(module, block, *window, name);
      !status.ok()) {
    return Rejected(stmt, buffer, status);
  }
  ir::Node* alloc = AllocNamed(proc, name);
  if (alloc == nullptr) {
    return absl::InternalError(
        absl::StrCat("vectorize: stage_mem made no '", name, "'"));
  }
  std::vector<int64_t> order;
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dim) order.push_back(d);
  }
  order.push_back(dim);
  if (absl::Status status =
          primitives::RearrangeDim(module, ir::Cursor(module, alloc), order);
      !status.ok()) {
    return Rejected(stmt, buffer, status);
  }
  return alloc;
}

absl::Status LayOutByTiles(ir::Module& module, ir::Node& proc, ir::Node& alloc,
                           int64_t dim, int64_t rows) {
  // stage_mem's copy-in nests a loop per dimension, the first outermost.
  ir::Node* loop = ir::Cursor(module, &alloc).next().node();
  for (int64_t d = 0; d < dim && loop != nullptr; ++d) {
    loop = loop->is(ir::Op::kFor) && ir::ForView(*loop).body().size() == 1
               ? ir::ForView(*loop).body().front()
               : nullptr;
  }
  if (loop == nullptr || !loop->is(ir::Op::kFor)) {
    return absl::InternalError(
        absl::StrCat("vectorize: the copy into '", alloc.name(),
                     "' is not a loop per dimension (a bug)"));
  }
  auto divided =
      primitives::DivideLoop(module, ir::Cursor(module, loop), rows,
                             ir::FreshName(module, proc, loop->name() + "o"),
                             ir::FreshName(module, proc, loop->name() + "i"),
                             primitives::TailStrategy::kCut, /*perfect=*/true);
  if (!divided.ok()) return divided.status();
  // A perfect division keeps a cut tail of no iterations (divide_loop.h).
  if (divided->tail.is_valid()) {
    if (absl::Status status =
            primitives::EliminateDeadCode(module, divided->tail);
        !status.ok()) {
      return status;
    }
  }
  ir::Cursor cursor(module, &alloc);
  if (absl::Status status = primitives::DivideDim(module, cursor, dim, rows);
      !status.ok()) {
    return status;
  }
  const int64_t rank = alloc.declared_type().rank();
  std::vector<int64_t> order = {dim};
  for (int64_t d = 0; d < rank; ++d) {
    if (d != dim && d != dim + 1) order.push_back(d);
  }
  order.push_back(dim + 1);
  if (absl::Status status = primitives::RearrangeDim(module, cursor, order);
      !status.ok()) {
    return status;
  }
  return primitives::Simplify(module, proc);
}

}  // namespace tessel::vectorize
