#include "libs/vectorize/nest.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "libs/effects/effects.h"
#include "libs/ir/cursor.h"
#include "libs/ir/forms.h"
#include "libs/ir/op.h"
#include "libs/ir/types.h"
#include "libs/ir/views.h"
#include "libs/primitives/fission.h"
#include "libs/support/source.h"
#include "libs/vectorize/fill.h"

namespace tessel::vectorize {
namespace {

using primitives::LinearForm;

absl::Status Reject(const ir::Node& node, absl::string_view message) {
  return absl::FailedPreconditionError(FormatDiagnostic(
      node.loc(), absl::StrCat("cannot vectorize: ", message)));
}

// A nest of a shape vectorize does not handle: it stays scalar, and the
// status (Unimplemented) is the note that says why.
absl::Status Unsupported(const ir::Node& node, absl::string_view message) {
  Location loc = node.loc();
  std::string where = loc.known() ? absl::StrCat(loc.source->name(), ":",
                                                 loc.line, ":", loc.col, ": ")
                                  : std::string();
  return absl::UnimplementedError(
      absl::StrCat(where, "note: this nest stays scalar: ", message));
}

// The first loop under `node` (itself included) whose body holds more
// than one statement, or null.
ir::Node* FirstImperfectLoop(ir::Node& node) {
  if (!node.is(ir::Op::kFor)) return nullptr;
  absl::Span<ir::Node* const> body = ir::ForView(node).body();
  // A fill stays with its reduction's loops (fill.h), which hold one
  // statement each.
  if (body.size() > 1) return HoldsFill(node) ? nullptr : &node;
  return body.empty() ? nullptr : FirstImperfectLoop(*body[0]);
}

// The indices of an element read or written (none for a scalar).
absl::Span<ir::Node* const> IndicesOf(ir::Node& access) {
  return access.is(ir::Op::kLoad) ? ir::LoadView(access).indices()
                                  : absl::Span<ir::Node* const>();
}

// Whether `loop` indexes `access` only in its last dimension with
// coefficient 1 (`lane`), or not at all (`absent`).
struct Use {
  bool absent = true;
  bool lane = false;
};
absl::StatusOr<Use> UseOf(ir::Node& access, const ir::Node& loop) {
  Use use;
  absl::Span<ir::Node* const> indices = IndicesOf(access);
  for (size_t d = 0; d < indices.size(); ++d) {
    std::optional<LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value()) {
      return Reject(*indices[d], "an index that is not affine in the loops");
    }
    int64_t coefficient = form->coefficient(&loop);
    if (coefficient == 0) continue;
    use.absent = false;
    use.lane = d + 1 == indices.size() && coefficient == 1;
    if (!use.lane) return use;
  }
  return use;
}

// Whether the last index of `access` is exactly `loop + c` and the lanes
// past the loop's end fall past the tensor's last dimension.
bool EndsWithTensor(ir::Node& access, const ir::Node& loop) {
  absl::Span<ir::Node* const> indices = IndicesOf(access);
  if (indices.empty()) return false;
  std::optional<LinearForm> form = AffineForm(*indices.back());
  if (!form.has_value() || form->terms().size() != 1 ||
      form->coefficient(&loop) != 1) {
    return false;
  }
  const ir::Type& type = ir::LoadView(access).buffer()->declared_type();
  if (!type.is_shaped() || type.dims().empty() ||
      !type.dims().back().is_constant()) {
    return false;
  }
  return form->constant() +
             LiteralOf(*ir::ForView(const_cast<ir::Node&>(loop)).hi()) ==
         type.dims().back().value;
}

// Whether `expr` is zero whenever every read that `loop` indexes is zero
// (padding), whatever else holds: what padding a reduction needs.
bool ZeroWhenPadded(const ir::Node& expr, const ir::Node& loop) {
  switch (expr.op()) {
    case ir::Op::kLoad: {
      auto use = UseOf(const_cast<ir::Node&>(expr), loop);
      return use.ok() && !use->absent;
    }
    case ir::Op::kMul:  // 0 * 0: a finite factor could be inf otherwise
    case ir::Op::kAdd:
    case ir::Op::kSub:
      return ZeroWhenPadded(*expr.operand(0), loop) &&
             ZeroWhenPadded(*expr.operand(1), loop);
    case ir::Op::kNeg:
      return ZeroWhenPadded(*expr.operand(0), loop);
    default:
      return false;
  }
}

bool HasDivision(const ir::Node& expr) {
  if (expr.is(ir::Op::kDiv)) return true;
  for (const ir::Node* operand : expr.operands()) {
    if (HasDivision(*operand)) return true;
  }
  return false;
}

// Every two instances of `stmt` (in `loops`, outermost first) commute
// (libs/effects: no write against another access of its location; two
// reductions of one location commute), so that tiling, interchange and
// vectorization may run them in any order. Instances in two iterations of
// a loop that declares the written buffer write buffers of their own.
absl::Status CheckAnyOrder(const ir::Node& proc, ir::Node& stmt,
                           const std::vector<ir::Node*>& loops) {
  effects::ProcAnalysis analysis(proc);
  auto effects = effects::EffectsOf(analysis.model(), {&stmt});
  if (!effects.ok()) return Reject(stmt, effects.status().message());
  const ir::Node* written = WrittenBy(stmt);
  for (size_t d = 0; d < loops.size(); ++d) {
    if (written != nullptr && Declares(*loops[d], *written)) continue;
    auto pairs = effects::InstancePairs(analysis.model(), *effects, *effects, d,
                                        {{d, effects::Cmp::kLess}});
    if (!pairs.ok()) return Reject(stmt, pairs.status().message());
    auto conflict =
        effects::FindConflict(analysis.model(), *effects, *effects, *pairs);
    if (!conflict.ok()) return Reject(stmt, conflict.status().message());
    if (conflict->has_value()) {
      return Reject(stmt,
                    absl::StrCat("its instances do not commute: ", **conflict));
    }
  }
  return absl::OkStatus();
}

// A transposing plan for an assign that no lane loop fits (Mode::
// kTranspose): the lanes are the innermost loop that indexes only the
// written element's last dimension, the rows a loop that indexes only its
// next-to-last one, and some read is transposed (rows in its last
// dimension, lanes in its next-to-last); every other read is a row, a
// direct 2-D tile or a scalar. Null loops when none fits.
absl::StatusOr<NestPlan> TransposePlan(ir::Node& stmt,
                                       const std::vector<ir::Node*>& loops,
                                       const std::vector<ir::Node*>& reads) {
  NestPlan plan;
  plan.mode = Mode::kTranspose;
  ir::Node& lhs = *stmt.operand(0);
  const size_t rank = IndicesOf(lhs).size();
  if (!stmt.is(ir::Op::kAssign) || rank < 2) return plan;
  // An element assigned in every iteration of some loop stays scalar
  // (PlanNest says why); not a loop each of whose iterations declares the
  // buffer anew (a packing of a tile of lanes).
  const ir::Node& written = *ir::LoadView(lhs).buffer();
  for (const ir::Node* loop : loops) {
    if (UnitDims(lhs, *loop) == 0 && !Declares(*loop, written)) return plan;
  }
  const int64_t last = int64_t{1} << (rank - 1);
  const int64_t next = int64_t{1} << (rank - 2);
  for (auto x = loops.rbegin(); x != loops.rend(); ++x) {
    if (UnitDims(lhs, **x) != last) continue;
    for (auto y = loops.rbegin(); y != loops.rend(); ++y) {
      if (UnitDims(lhs, **y) != next) continue;
      bool fits = true, transposed = false;
      for (ir::Node* read : reads) {
        std::optional<TileRead> kind = TileReadOf(*read, **y, **x);
        fits = fits && kind.has_value();
        transposed = transposed || kind == TileRead::kTransposed;
      }
      if (fits && transposed) {
        plan.vector_loop = *x;
        plan.row_loop = *y;
        return plan;
      }
    }
  }
  return plan;
}

}  // namespace

int64_t UnitDims(ir::Node& access, const ir::Node& loop) {
  int64_t dims = 0;
  absl::Span<ir::Node* const> indices = IndicesOf(access);
  for (size_t d = 0; d < indices.size(); ++d) {
    std::optional<LinearForm> form = AffineForm(*indices[d]);
    if (!form.has_value()) return -1;
    int64_t c = form->coefficient(&loop);
    if (c == 0) continue;
    if (c != 1) return -1;
    dims |= int64_t{1} << d;
  }
  return dims;
}

std::optional<TileRead> TileReadOf(ir::Node& read, const ir::Node& rows,
                                   const ir::Node& lanes) {
  const size_t rank = IndicesOf(read).size();
  const int64_t x = UnitDims(read, lanes), y = UnitDims(read, rows);
  if (x == 0 && y == 0) return TileRead::kScalar;
  if (rank == 0 || x < 0 || y < 0) return std::nullopt;
  const int64_t last = int64_t{1} << (rank - 1);
  const int64_t next = rank >= 2 ? int64_t{1} << (rank - 2) : 0;
  if (x == last && y == 0) return TileRead::kRow;
  if (x == last && y == next) return TileRead::kDirect;
  if (y == last && x == next) return TileRead::kTransposed;
  return std::nullopt;
}

absl::Status CheckVectorizable(const ir::Node& expr) {
  switch (expr.op()) {
    case ir::Op::kConst:
    case ir::Op::kLoad:
      return absl::OkStatus();
    case ir::Op::kRef:
      if (expr.def() != nullptr && expr.def()->is(ir::Op::kFor)) {
        return Unsupported(expr, "a loop variable used as data");
      }
      return absl::OkStatus();
    default:
      break;
  }
  if (!ir::IsArithmetic(expr.op()) && !expr.is(ir::Op::kCast)) {
    return Unsupported(expr, absl::StrCat("vectorize does not handle '",
                                          ir::Spelling(expr.op()), "' yet"));
  }
  for (const ir::Node* operand : expr.operands()) {
    if (absl::Status status = CheckVectorizable(*operand); !status.ok()) {
      return status;
    }
  }
  return absl::OkStatus();
}

int64_t LiteralOf(const ir::Node& bound) { return bound.int_value(); }

int64_t TripOf(const ir::Node& loop) {
  return LiteralOf(*loop.operand(1)) - LiteralOf(*loop.operand(0));
}

void LoadsIn(ir::Node& expr, std::vector<ir::Node*>& loads) {
  if (expr.is(ir::Op::kLoad)) {
    loads.push_back(&expr);
    return;
  }
  for (ir::Node* operand : expr.operands()) LoadsIn(*operand, loads);
}

ir::Node* BottomOf(ir::Node& loop) {
  ir::Node* node = &loop;
  while (node->is(ir::Op::kFor)) {
    absl::Span<ir::Node* const> body = ir::ForView(*node).body();
    if (body.size() != 1 && !HoldsFill(*node)) break;
    node = body.back();
  }
  return node;
}

std::vector<ir::Node*> LoopsOf(const ir::Node& stmt) {
  std::vector<ir::Node*> loops;
  for (const ir::Node* loop : effects::LoopsAround(stmt)) {
    loops.push_back(const_cast<ir::Node*>(loop));
  }
  return loops;
}

std::optional<LinearForm> AffineForm(const ir::Node& expr) {
  return LinearForm::From(
      expr, [](const ir::Node& binder) -> std::optional<LinearForm> {
        if (binder.is(ir::Op::kFor)) return LinearForm::Of(&binder);
        return std::nullopt;
      });
}

absl::Status SplitIntoNests(ir::Module& module, ir::Node& proc) {
  for (;;) {
    ir::Node* imperfect = nullptr;
    for (ir::Node* stmt : ir::BodyOf(proc)) {
      imperfect = FirstImperfectLoop(*stmt);
      if (imperfect != nullptr) break;
    }
    if (imperfect == nullptr) return absl::OkStatus();
    ir::Node* first = ir::ForView(*imperfect).body()[0];
    size_t lifts = LoopsOf(*first).size();
    auto split = primitives::Fission(module, ir::Cursor(module, first).after(),
                                     static_cast<int64_t>(lifts));
    if (!split.ok()) {
      return Reject(*first,
                    absl::StrCat("its loops cannot be split from the next "
                                 "statement's: ",
                                 split.status().message()));
    }
  }
}

std::vector<ir::Node*> NestStatements(ir::Node& proc) {
  std::vector<ir::Node*> stmts;
  for (ir::Node* stmt : ir::BodyOf(proc)) {
    if (stmt->is(ir::Op::kFor)) stmts.push_back(BottomOf(*stmt));
  }
  return stmts;
}

absl::StatusOr<NestPlan> PlanNest(ir::Node& proc, ir::Node& stmt) {
  if (!stmt.is(ir::Op::kAssign) && !stmt.is(ir::Op::kReduce)) {
    return Unsupported(stmt,
                       absl::StrCat("a loop nest must end in one assign or "
                                    "reduce, not '",
                                    ir::Spelling(stmt.op()), "'"));
  }
  std::vector<ir::Node*> loops = LoopsOf(stmt);
  for (ir::Node* loop : loops) {
    ir::ForView view(*loop);
    if (!view.lo()->is(ir::Op::kConst) || !view.hi()->is(ir::Op::kConst)) {
      return Reject(*loop,
                    "its bounds are not literals (give sizes with "
                    "`parse -D NAME=VALUE`)");
    }
    // A statement that never runs has nothing to vectorize (and a tile of
    // no lanes no vector type).
    if (TripOf(*loop) <= 0) {
      return Unsupported(*loop, absl::StrCat("its loop '", loop->name(),
                                             "' runs no iteration"));
    }
  }
  ir::Node& lhs = *stmt.operand(0);
  ir::Node& rhs = *stmt.operand(1);
  if (absl::Status status = CheckVectorizable(rhs); !status.ok()) {
    return status;
  }
  std::vector<ir::Node*> reads;
  LoadsIn(rhs, reads);
  for (ir::Node* index : IndicesOf(lhs)) {
    if (!AffineForm(*index).has_value()) {
      return Reject(*index, "an index that is not affine in the loops");
    }
  }

  // The loop each lane of a vector takes: the innermost that indexes the
  // written element's last dimension and every read only there.
  NestPlan plan;
  auto only_last = [&](const ir::Node& loop,
                       bool in_lhs) -> absl::StatusOr<bool> {
    auto written = UseOf(lhs, loop);
    if (!written.ok()) return written.status();
    if (in_lhs ? !written->lane : !written->absent) return false;
    bool read = false;
    for (ir::Node* load : reads) {
      auto use = UseOf(*load, loop);
      if (!use.ok()) return use.status();
      if (!use->absent && !use->lane) return false;
      read = read || use->lane;
    }
    return in_lhs || read;
  };
  // The innermost loop that fits, for lanes or for a reduction.
  auto innermost = [&](bool in_lhs) -> absl::Status {
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      auto fits = only_last(**it, in_lhs);
      if (!fits.ok()) return fits.status();
      if (*fits) {
        plan.vector_loop = *it;
        break;
      }
    }
    return absl::OkStatus();
  };
  if (absl::Status status = innermost(/*in_lhs=*/true); !status.ok()) {
    return status;
  }
  if (plan.vector_loop == nullptr && stmt.is(ir::Op::kReduce)) {
    plan.mode = Mode::kReduction;
    if (absl::Status status = innermost(/*in_lhs=*/false); !status.ok()) {
      return status;
    }
  }
  if (plan.vector_loop == nullptr) {
    auto transposed = TransposePlan(stmt, loops, reads);
    if (!transposed.ok()) return transposed.status();
    if (transposed->vector_loop != nullptr) {
      if (absl::Status status = CheckAnyOrder(proc, stmt, loops);
          !status.ok()) {
        return status;
      }
      return *transposed;
    }
  }
  if (plan.vector_loop == nullptr) {
    return Unsupported(
        stmt,
        "no loop indexes the last dimension of what it writes (or, for a "
        "reduce, of everything it reads) and no other: the accesses would "
        "not be contiguous vectors");
  }
  // The rows: the innermost other loop that indexes the written element,
  // for lanes before its last dimension (a loop in the last one, as the
  // tile loop of the lanes is, would make rows overlap).
  absl::Span<ir::Node* const> written = IndicesOf(lhs);
  size_t row_dims = written.size();
  if (plan.mode == Mode::kLanes && row_dims > 0) --row_dims;
  for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
    if (*it == plan.vector_loop ||
        (row_dims < written.size() &&
         AffineForm(*written.back())->coefficient(*it) != 0)) {
      continue;
    }
    for (size_t d = 0; d < row_dims; ++d) {
      if (AffineForm(*written[d])->coefficient(*it) != 0) {
        plan.row_loop = *it;
      }
    }
    if (plan.row_loop != nullptr) break;
  }
  if (stmt.is(ir::Op::kAssign)) {
    for (ir::Node* loop : loops) {
      auto use = UseOf(lhs, *loop);
      if (!use.ok()) return use.status();
      if (use->absent) {
        return Unsupported(stmt, absl::StrCat("it assigns one element in "
                                              "every iteration of loop '",
                                              loop->name(), "'"));
      }
    }
  }
  if (plan.mode == Mode::kLanes) {
    plan.paddable = lhs.is(ir::Op::kLoad) &&
                    EndsWithTensor(lhs, *plan.vector_loop) && !HasDivision(rhs);
    plan.maskable = lhs.is(ir::Op::kLoad) &&
                    (IsFloat(lhs.type().elem()) || !HasDivision(rhs));
  } else {
    plan.maskable = ZeroWhenPadded(rhs, *plan.vector_loop);
    plan.paddable = ZeroWhenPadded(rhs, *plan.vector_loop);
    for (ir::Node* load : reads) {
      auto use = UseOf(*load, *plan.vector_loop);
      if (use.ok() && !use->absent) {
        plan.paddable =
            plan.paddable && EndsWithTensor(*load, *plan.vector_loop);
      }
    }
  }
  if (absl::Status status = CheckAnyOrder(proc, stmt, loops); !status.ok()) {
    return status;
  }
  return plan;
}

bool Declares(const ir::Node& loop, const ir::Node& buffer) {
  for (const ir::Node* node = buffer.parent(); node != nullptr;
       node = node->parent()) {
    if (node == &loop) return true;
  }
  return false;
}

const ir::Node* WrittenBy(const ir::Node& stmt) {
  if (!stmt.is(ir::Op::kAssign) && !stmt.is(ir::Op::kReduce)) return nullptr;
  ir::Node& lhs = *stmt.operand(0);
  return lhs.is(ir::Op::kLoad) ? ir::LoadView(lhs).buffer() : lhs.def();
}

}  // namespace tessel::vectorize
