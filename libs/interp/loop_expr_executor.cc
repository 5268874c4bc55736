// Expressions of the loop level, computed for a set of lanes at once into
// their columns (loop_executor_internal.h). Every check the spec makes is
// made on every lane computed: bounds, reads of unwritten elements,
// overflow of control arithmetic, integer division by zero, casts out of
// range, unset configuration fields.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

// The first lane of `lanes`, alone.
LaneSet FirstLane(LaneSet lanes) { return LaneSet{lanes.sel, 1}; }

bool IsConstant(const Expr& e) {
  return e.op == ExprOp::kIntConst || e.op == ExprOp::kDataConst;
}

// The value of lane `lane` of a data column of `type`.
Scalar ScalarAt(ElemType type, const void* column, int32_t lane) {
  return element::WithElemType(type, [&]<ElemType E>() {
    const auto value = static_cast<const element::Repr<E>*>(column)[lane];
    return element::kIsFloat<E> ? Scalar::Float(E, value)
                                : Scalar::Int(E, static_cast<int32_t>(value));
  });
}

}  // namespace

const int64_t* Executor::Control(const Expr& e, Frame& frame, LaneSet lanes) {
  int64_t* out = frame.Column<int64_t>(e);
  if (IsConstant(e) || lanes.empty()) return out;
  if (e.varying || lanes.count == 1) {
    ComputeControl(e, frame, lanes, out);
  } else {
    ComputeControl(e, frame, FirstLane(lanes), out);
    SpreadLane(8, out, lanes.first(), lanes.last());
  }
  return out;
}

const void* Executor::Data(const Expr& e, Frame& frame, LaneSet lanes) {
  void* out = frame.Column(e);
  if (IsConstant(e) || lanes.empty()) return out;
  if (e.varying || lanes.count == 1) {
    ComputeData(e, frame, lanes, out);
  } else {
    ComputeData(e, frame, FirstLane(lanes), out);
    SpreadLane(ColumnBytes(e.type), out, lanes.first(), lanes.last());
  }
  return out;
}

void Executor::ControlArith(const Expr& e, Frame& frame, LaneSet lanes,
                            int64_t* out) {
  const int64_t* a = Control(e.args[0], frame, lanes);
  if (e.op == ExprOp::kNegIndex) {
    const int32_t bad = FirstFailingLane(
        lanes, [&](int32_t l) { return SubIndex(0, a[l], out[l]); });
    if (bad >= 0) Fail(e.where, "control arithmetic overflows 64 bits");
    return;
  }
  const int64_t* b = Control(e.args[1], frame, lanes);
  if (failed_) return;
  int32_t bad = -1;
  switch (e.op) {
    case ExprOp::kAddIndex:
      bad = FirstFailingLane(
          lanes, [&](int32_t l) { return AddIndex(a[l], b[l], out[l]); });
      break;
    case ExprOp::kSubIndex:
      bad = FirstFailingLane(
          lanes, [&](int32_t l) { return SubIndex(a[l], b[l], out[l]); });
      break;
    case ExprOp::kMulIndex:
      bad = FirstFailingLane(
          lanes, [&](int32_t l) { return MulIndex(a[l], b[l], out[l]); });
      break;
    case ExprOp::kFloorDiv:
    case ExprOp::kFloorMod: {
      const int32_t zero =
          FirstFailingLane(lanes, [&](int32_t l) { return b[l] > 0; });
      if (zero >= 0) {
        Fail(e.args[1].where,
             absl::StrCat("the divisor of a control expression must be "
                          "positive, not ",
                          b[zero]));
        return;
      }
      if (e.op == ExprOp::kFloorDiv) {
        ForEachLane(lanes, [&](int32_t l) { out[l] = FloorDiv(a[l], b[l]); });
      } else {
        ForEachLane(lanes, [&](int32_t l) { out[l] = FloorMod(a[l], b[l]); });
      }
      return;
    }
    case ExprOp::kMinIndex:
      ForEachLane(lanes, [&](int32_t l) { out[l] = std::min(a[l], b[l]); });
      return;
    case ExprOp::kMaxIndex:
      ForEachLane(lanes, [&](int32_t l) { out[l] = std::max(a[l], b[l]); });
      return;
    default:
      return;
  }
  if (bad >= 0) Fail(e.where, "control arithmetic overflows 64 bits");
}

void Executor::Logic(const Expr& e, Frame& frame, LaneSet lanes,
                     int64_t* out) {
  const int64_t* a = Control(e.args[0], frame, lanes);
  if (failed_) return;
  if (e.op == ExprOp::kNot) {
    ForEachLane(lanes, [&](int32_t l) { out[l] = !a[l]; });
    return;
  }
  // Short-circuit as C does: the second operand only where the first
  // does not decide.
  const bool is_and = e.op == ExprOp::kAnd;
  const LaneSet undecided = Choose(a, is_and, lanes);
  const int64_t* b =
      undecided.empty() ? nullptr : Control(e.args[1], frame, undecided);
  ForEachLane(lanes, [&](int32_t l) {
    out[l] = (a[l] != 0) == is_and ? b[l] != 0 : a[l] != 0;
  });
  Release(undecided);
}

void Executor::ComputeControl(const Expr& e, Frame& frame, LaneSet lanes,
                              int64_t* out) {
  switch (e.op) {
    case ExprOp::kControlVar:
      // A region's variable is its column already.
      if (!e.varying) {
        ForEachLane(lanes, [&](int32_t l) { out[l] = frame.controls[e.slot]; });
      }
      return;
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex:
    case ExprOp::kMulIndex:
    case ExprOp::kNegIndex:
    case ExprOp::kFloorDiv:
    case ExprOp::kFloorMod:
    case ExprOp::kMinIndex:
    case ExprOp::kMaxIndex:
      ControlArith(e, frame, lanes, out);
      return;
    case ExprOp::kCompareIndex: {
      const int64_t* a = Control(e.args[0], frame, lanes);
      const int64_t* b = Control(e.args[1], frame, lanes);
      CompareControlColumn(e.compare, a, b, out, lanes);
      return;
    }
    case ExprOp::kCompareData: {
      const void* a = Data(e.args[0], frame, lanes);
      const void* b = Data(e.args[1], frame, lanes);
      CompareColumn(e.args[0].type, e.compare, a, b, out, lanes);
      return;
    }
    case ExprOp::kAnd:
    case ExprOp::kOr:
    case ExprOp::kNot:
      Logic(e, frame, lanes, out);
      return;
    case ExprOp::kStride: {
      const int64_t stride = frame.views[e.slot].strides[e.value];
      ForEachLane(lanes, [&](int32_t l) { out[l] = stride; });
      return;
    }
    case ExprOp::kReadControlConfig:
      ReadConfig(e, lanes, out);
      return;
    default:
      Fail(e.where, "internal error: a data expression used as control");
      return;
  }
}

void Executor::ReadConfig(const Expr& e, LaneSet lanes, void* out) {
  const ConfigValue& value = config_[e.slot];
  const ConfigSlot& slot = program_.config_slots[e.slot];
  if (!value.set) {
    Fail(e.where, absl::StrCat("reads ", slot.config, ".", slot.field,
                               " before it is written"));
    return;
  }
  if (!slot.is_data) {
    auto* column = static_cast<int64_t*>(out);
    ForEachLane(lanes, [&](int32_t l) { column[l] = value.control; });
    return;
  }
  element::WithElemType(slot.elem, [&]<ElemType E>() {
    auto* column = static_cast<element::Repr<E>*>(out);
    const auto data = static_cast<element::Repr<E>>(
        element::kIsFloat<E> ? value.data.f : value.data.i);
    ForEachLane(lanes, [&](int32_t l) { column[l] = data; });
  });
}

void Executor::CastFailed(const Expr& e, ElemType from, const void* operand,
                          int32_t lane) {
  Fail(e.where, absl::StrCat("cannot cast ",
                             ScalarText(ScalarAt(from, operand, lane)), " to ",
                             ElemTypeName(e.type),
                             ": the value is out of its range"));
}

void Executor::ComputeData(const Expr& e, Frame& frame, LaneSet lanes,
                           void* out) {
  switch (e.op) {
    case ExprOp::kLoad:
      Load(e, frame, lanes, out);
      return;
    case ExprOp::kArith: {
      const void* a = Data(e.args[0], frame, lanes);
      const void* b = Data(e.args[1], frame, lanes);
      if (failed_) return;
      if (ArithColumn(e.type, e.arith, a, b, out, lanes) >= 0) {
        Fail(e.where, ScalarErrorText(ScalarError::kDivisionByZero));
      }
      return;
    }
    case ExprOp::kNegate:
      NegateColumn(e.type, Data(e.args[0], frame, lanes), out, lanes);
      return;
    case ExprOp::kSelect:
      Select(e, frame, lanes, out);
      return;
    case ExprOp::kCast: {
      const void* operand = Data(e.args[0], frame, lanes);
      if (failed_) return;
      const int32_t bad =
          CastColumn(e.args[0].type, e.type, operand, out, lanes);
      if (bad >= 0) CastFailed(e, e.args[0].type, operand, bad);
      return;
    }
    case ExprOp::kReadDataConfig:
      ReadConfig(e, lanes, out);
      return;
    case ExprOp::kReduction:
    case ExprOp::kExtractLane:
      VectorScalar(e, frame, out);
      return;
    default:
      Fail(e.where, "internal error: a control expression used as data");
      return;
  }
}

void Executor::Select(const Expr& e, Frame& frame, LaneSet lanes, void* out) {
  const int64_t* cond = Control(e.args[0], frame, lanes);
  if (failed_) return;
  // Only the chosen operand is computed, as with C's `?:`.
  const void* chosen[2] = {nullptr, nullptr};
  for (int k = 0; k < 2 && !failed_; ++k) {
    const LaneSet these = Choose(cond, k == 0, lanes);
    if (!these.empty()) chosen[k] = Data(e.args[1 + k], frame, these);
    Release(these);
  }
  if (failed_) return;
  const int bytes = ColumnBytes(e.type);
  auto* result = static_cast<uint8_t*>(out);
  ForEachLane(lanes, [&](int32_t l) {
    const void* from = chosen[cond[l] ? 0 : 1];
    std::memcpy(result + l * bytes,
                static_cast<const uint8_t*>(from) + l * bytes, bytes);
  });
}

bool Executor::Locate(const View& view, absl::Span<const Expr> indices,
                      int32_t slot, Frame& frame, LaneSet lanes) {
  int64_t* offsets = offsets_.data();
  // The indices that do not vary over the lanes make one offset, added to
  // each lane's varying part.
  int64_t base = view.offset;
  bool varying = false;
  for (size_t k = 0; k < indices.size(); ++k) {
    const int64_t dim = view.dims[k];
    const int64_t stride = view.strides[k];
    auto outside = [&](int64_t i) { return i < 0 || i >= dim; };
    if (!indices[k].varying || lanes.count == 1) {
      int32_t first = lanes.first();
      const int64_t i =
          ControlValue(indices[k], frame, LaneSet{&first, 1});
      if (failed_) return false;
      if (outside(i)) {
        OutOfBounds(indices[k], k, i, dim, slot, frame);
        return false;
      }
      base += i * stride;
      continue;
    }
    const int64_t* index = Control(indices[k], frame, lanes);
    if (failed_) return false;
    int32_t bad = -1;
    if (lanes.sel == nullptr) {
      // Branch-free, so that the compiler vectorizes it; the failing lane
      // is looked for only when there is one.
      bool any = false;
      if (!varying) {
        for (int32_t l = 0; l < lanes.count; ++l) {
          any |= outside(index[l]);
          offsets[l] = index[l] * stride;
        }
      } else {
        for (int32_t l = 0; l < lanes.count; ++l) {
          any |= outside(index[l]);
          offsets[l] += index[l] * stride;
        }
      }
      if (any) {
        bad = FirstFailingLane(lanes,
                               [&](int32_t l) { return !outside(index[l]); });
      }
    } else {
      bad = FirstFailingLane(lanes, [&](int32_t l) {
        if (outside(index[l])) return false;
        offsets[l] = (varying ? offsets[l] : 0) + index[l] * stride;
        return true;
      });
    }
    if (bad >= 0) {
      OutOfBounds(indices[k], k, index[bad], dim, slot, frame);
      return false;
    }
    varying = true;
  }
  if (varying) {
    ForEachLane(lanes, [&](int32_t l) { offsets[l] += base; });
  } else {
    offsets[lanes.first()] = base;
  }
  return true;
}

void Executor::OutOfBounds(const Expr& index, size_t dim, int64_t value,
                           int64_t extent, int32_t slot, Frame& frame) {
  Fail(index.where,
       absl::StrCat("index ", value, " is out of bounds for dimension ", dim,
                    " of '", frame.proc->view_names[slot], "' (size ", extent,
                    ")"));
}

absl::InlinedVector<int64_t, 4> Executor::IndicesAt(
    absl::Span<const Expr> indices, Frame& frame, int32_t lane) {
  absl::InlinedVector<int64_t, 4> values;
  for (const Expr& index : indices) {
    // What does not vary was computed for another lane, if for any.
    values.push_back(index.varying
                         ? frame.Column<int64_t>(index)[lane]
                         : ControlValue(index, frame, LaneSet{&lane, 1}));
  }
  return values;
}

void Executor::Load(const Expr& e, Frame& frame, LaneSet lanes, void* out) {
  const View& view = frame.views[e.slot];
  if (!Locate(view, e.args, e.slot, frame, lanes)) return;
  const Buffer& buffer = *view.buffer;
  const int64_t* offsets = offsets_.data();
  if (buffer.unwritten > 0) {
    const int32_t bad = FirstFailingLane(
        lanes, [&](int32_t l) { return buffer.written[offsets[l]] != 0; });
    if (bad >= 0) {
      Fail(e.where,
           absl::StrCat("reads ",
                        ElementText(frame.proc->view_names[e.slot],
                                    IndicesAt(e.args, frame, bad)),
                        " before it is written"));
      return;
    }
  }
  GatherColumn(e.type, buffer.tensor.bytes.data(), offsets, out, lanes);
}

}  // namespace loop
}  // namespace tessel
