// Element writes of the loop level, `assign` and `reduce`, for a set of
// lanes at once: the value on every lane first, then the writes in the
// order of the lanes, so that lanes writing one element leave the last
// one's value, and a reduction (or, in a region, an assignment of
// (OP TARGET X)) reads each element just before writing it (loop_plan.h).
#include <algorithm>

#include "absl/strings/str_cat.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

using element::Repr;

// What went wrong on the lane an accumulation stopped at.
enum class Failure { kNone, kUnwritten, kDivisionByZero };

// target[offsets[l]] = target OP other[l] (or other[l] OP target, with
// `target_first` false) on the lanes in order, each element written before
// it is read; the first failing lane, or -1. Consecutive lanes into one
// element (a reduction's inner loop) keep it in a register meanwhile.
template <ElemType E, ArithOp Op, typename OffsetOf>
int32_t AccumulateLanes(bool target_first, const Repr<E>* other,
                        OffsetOf offset_of, Buffer& buffer, LaneSet lanes,
                        Failure& failure) {
  uint8_t* data = buffer.tensor.bytes.data();
  const int width = ElemTypeBytes(E);
  int64_t held = -1;  // the element in `target`, not stored yet
  Repr<E> target{};
  const bool complete = buffer.unwritten == 0;
  const int32_t bad = FirstFailingLane(lanes, [&](int32_t l) {
    const int64_t offset = offset_of(l);
    if (offset != held) {
      if (held >= 0) element::Store<E>(target, data + held * width);
      held = -1;
      if (!complete && !buffer.written[offset]) {
        failure = Failure::kUnwritten;
        return false;
      }
      target = element::Load<E>(data + offset * width);
      held = offset;
    }
    const bool ok = target_first
                        ? element::Arith<E, Op>(target, other[l], target)
                        : element::Arith<E, Op>(other[l], target, target);
    if (!ok) failure = Failure::kDivisionByZero;
    return ok;
  });
  if (held >= 0) element::Store<E>(target, data + held * width);
  return bad;
}

// Accumulates on the lanes into the elements at `offsets`, the same for
// every lane (set on the first only) when `one_element`.
template <ElemType E, ArithOp Op>
int32_t AccumulateAt(bool one_element, bool target_first,
                     const Repr<E>* other, const int64_t* offsets,
                     Buffer& buffer, LaneSet lanes, Failure& failure) {
  if (one_element) {
    const int64_t offset = offsets[lanes.first()];
    return AccumulateLanes<E, Op>(
        target_first, other, [offset](int32_t) { return offset; }, buffer,
        lanes, failure);
  }
  return AccumulateLanes<E, Op>(
      target_first, other, [offsets](int32_t l) { return offsets[l]; },
      buffer, lanes, failure);
}

bool Varies(absl::Span<const Expr> indices, LaneSet lanes) {
  return lanes.count > 1 &&
         std::any_of(indices.begin(), indices.end(),
                     [](const Expr& index) { return index.varying; });
}

template <ElemType E>
void StoreLanes(const Repr<E>* value, const int64_t* offsets, Buffer& buffer,
                LaneSet lanes) {
  uint8_t* data = buffer.tensor.bytes.data();
  const int width = ElemTypeBytes(E);
  ForEachLane(lanes, [&](int32_t l) {
    element::Store<E>(value[l], data + offsets[l] * width);
    buffer.MarkWritten(offsets[l]);
  });
}

}  // namespace

void Executor::Update(const Stmt& stmt, Frame& frame, LaneSet lanes) {
  const View& view = frame.views[stmt.slot];
  const absl::Span<const Expr> target(stmt.exprs.data(),
                                      stmt.exprs.size() - 1);
  const void* value = Data(stmt.exprs.back(), frame, lanes);
  if (failed_ || !Locate(view, target, stmt.slot, frame, lanes)) return;
  Buffer& buffer = *view.buffer;
  if (stmt.op == StmtOp::kAssign) {
    LaneSet writes = lanes;
    int32_t last = lanes.last();
    if (!Varies(target, lanes)) {
      // Into one element: the last lane's value is the one that stays.
      writes = LaneSet{&last, 1};
      offsets_[last] = offsets_[lanes.first()];
    }
    element::WithElemType(stmt.elem, [&]<ElemType E>() {
      StoreLanes<E>(static_cast<const Repr<E>*>(value), offsets_.data(),
                    buffer, writes);
    });
    return;
  }
  Failure failure = Failure::kNone;
  const int32_t bad = element::WithElemType(stmt.elem, [&]<ElemType E>() {
    return AccumulateAt<E, ArithOp::kAdd>(
        !Varies(target, lanes), true, static_cast<const Repr<E>*>(value),
        offsets_.data(), buffer, lanes, failure);
  });
  if (bad >= 0) {
    Fail(stmt.where,
         absl::StrCat("reduces into ",
                      ElementText(frame.proc->view_names[stmt.slot],
                                  IndicesAt(target, frame, bad)),
                      " before it is written"));
  }
}

void Executor::Accumulate(const Stmt& stmt, Frame& frame, LaneSet lanes) {
  const Expr& value = stmt.exprs.back();
  const Expr& target = value.args[stmt.accumulates];
  const Expr& other_expr = value.args[1 - stmt.accumulates];
  const View& view = frame.views[stmt.slot];
  const void* other = Data(other_expr, frame, lanes);
  if (failed_ || !Locate(view, target.args, target.slot, frame, lanes)) return;
  Failure failure = Failure::kNone;
  const int32_t bad = element::WithElemType(stmt.elem, [&]<ElemType E>() {
    return element::WithArithOp(value.arith, [&]<ArithOp Op>() {
      return AccumulateAt<E, Op>(
          !Varies(target.args, lanes), stmt.accumulates == 0,
          static_cast<const Repr<E>*>(other), offsets_.data(), *view.buffer,
          lanes, failure);
    });
  });
  if (bad < 0) return;
  if (failure == Failure::kDivisionByZero) {
    Fail(value.where, ScalarErrorText(ScalarError::kDivisionByZero));
    return;
  }
  Fail(target.where,
       absl::StrCat("reads ",
                    ElementText(frame.proc->view_names[target.slot],
                                IndicesAt(target.args, frame, bad)),
                    " before it is written"));
}

}  // namespace loop
}  // namespace tessel
