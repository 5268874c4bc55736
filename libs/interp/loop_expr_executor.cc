// Expressions of the loop level, computed for a set of lanes at once into
// their columns (loop_executor_internal.h). Every check the spec makes is
// made on every lane computed: bounds, reads of unwritten elements,
// overflow of control arithmetic, integer division by zero, casts out of
// range, unset configuration fields.
#include <algorithm>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

absl::string_view OverflowText(const Expr& e) {
  return e.tensor_level ? "index arithmetic overflows 64 bits"
                        : "control arithmetic overflows 64 bits";
}

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

// offsets[l] = base + the sum of steps[m] * vars[m][l] on the lanes, with
// the common numbers of variables written out so that the loops are tight.
void AffineOffsets(uint64_t base, const uint64_t* steps,
                   const int64_t* const* vars, size_t moving, LaneSet lanes,
                   int64_t* offsets) {
  auto at = [&](int32_t l) {
    uint64_t offset = base;
    for (size_t m = 0; m < moving; ++m) {
      offset += steps[m] * static_cast<uint64_t>(vars[m][l]);
    }
    return static_cast<int64_t>(offset);
  };
  if (lanes.sel != nullptr || moving > 3) {
    ForEachLane(lanes, [&](int32_t l) { offsets[l] = at(l); });
    return;
  }
  const int32_t n = lanes.count;
  const uint64_t* s = steps;
  if (moving == 0) {
    for (int32_t l = 0; l < n; ++l) offsets[l] = static_cast<int64_t>(base);
  } else if (moving == 1) {
    for (int32_t l = 0; l < n; ++l) {
      offsets[l] =
          static_cast<int64_t>(base + s[0] * static_cast<uint64_t>(vars[0][l]));
    }
  } else if (moving == 2) {
    for (int32_t l = 0; l < n; ++l) {
      offsets[l] =
          static_cast<int64_t>(base + s[0] * static_cast<uint64_t>(vars[0][l]) +
                               s[1] * static_cast<uint64_t>(vars[1][l]));
    }
  } else {
    for (int32_t l = 0; l < n; ++l) {
      offsets[l] =
          static_cast<int64_t>(base + s[0] * static_cast<uint64_t>(vars[0][l]) +
                               s[1] * static_cast<uint64_t>(vars[1][l]) +
                               s[2] * static_cast<uint64_t>(vars[2][l]));
    }
  }
}

}  // namespace

bool Executor::QuickControl(const Expr& e, const Frame& frame, int32_t lane,
                            int64_t& value) {
  switch (e.op) {
    case ExprOp::kIntConst:
      value = e.value;
      return true;
    case ExprOp::kControlVar:
      // A region's variable is in its column; outside a batch, the lane is
      // the first, which holds the loop's value too (Executor::For).
      value = e.varying ? reinterpret_cast<const int64_t*>(frame.arena.data() +
                                                           e.column)[lane]
                        : frame.controls[e.slot];
      return true;
    case ExprOp::kNegIndex:
      return QuickControl(e.args[0], frame, lane, value) &&
             SubIndex(0, value, value);
    case ExprOp::kNot:
      if (!QuickControl(e.args[0], frame, lane, value)) return false;
      value = !value;
      return true;
    case ExprOp::kAnd:
    case ExprOp::kOr:
      // Short-circuit as C does.
      if (!QuickControl(e.args[0], frame, lane, value)) return false;
      if ((value != 0) != (e.op == ExprOp::kAnd)) {
        value = value != 0;
        return true;
      }
      if (!QuickControl(e.args[1], frame, lane, value)) return false;
      value = value != 0;
      return true;
    case ExprOp::kAddIndex:
    case ExprOp::kSubIndex:
    case ExprOp::kMulIndex:
    case ExprOp::kFloorDiv:
    case ExprOp::kFloorMod:
    case ExprOp::kMinIndex:
    case ExprOp::kMaxIndex:
    case ExprOp::kCompareIndex: {
      int64_t a, b;
      if (!QuickControl(e.args[0], frame, lane, a) ||
          !QuickControl(e.args[1], frame, lane, b)) {
        return false;
      }
      switch (e.op) {
        case ExprOp::kAddIndex:
          return AddIndex(a, b, value);
        case ExprOp::kSubIndex:
          return SubIndex(a, b, value);
        case ExprOp::kMulIndex:
          return MulIndex(a, b, value);
        case ExprOp::kFloorDiv:
        case ExprOp::kFloorMod:
          if (b <= 0) return false;
          value = e.op == ExprOp::kFloorDiv ? FloorDiv(a, b) : FloorMod(a, b);
          return true;
        case ExprOp::kMinIndex:
          value = std::min(a, b);
          return true;
        case ExprOp::kMaxIndex:
          value = std::max(a, b);
          return true;
        default:
          value = element::Compare(e.compare, a, b);
          return true;
      }
    }
    default:
      return false;
  }
}

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
    if (bad >= 0) Fail(e.where, OverflowText(e));
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
  if (bad >= 0) Fail(e.where, OverflowText(e));
}

void Executor::Logic(const Expr& e, Frame& frame, LaneSet lanes, int64_t* out) {
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
  Fail(e.where,
       absl::StrCat("cannot cast ", ScalarText(ScalarAt(from, operand, lane)),
                    " to ", ElemTypeName(e.type),
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
    case ExprOp::kFma: {
      const void* a = Data(e.args[0], frame, lanes);
      const void* b = Data(e.args[1], frame, lanes);
      const void* c = Data(e.args[2], frame, lanes);
      if (failed_) return;
      ScalarFmaColumn(e.type, a, b, c, out, lanes);
      return;
    }
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

bool Executor::Range(const Expr& e, Frame& frame, LaneSet lanes, int64_t& least,
                     int64_t& greatest) {
  if (!e.varying) {
    least = greatest = ControlValue(e, frame, FirstLane(lanes));
    return !failed_;
  }
  if (e.op == ExprOp::kControlVar) {
    least = region_lo_[e.value];
    greatest = region_hi_[e.value] - 1;
    return true;
  }
  int64_t a_least, a_greatest;
  if (!Range(e.args[0], frame, lanes, a_least, a_greatest)) return false;
  if (e.op == ExprOp::kNegIndex) {
    return !__builtin_sub_overflow(0, a_greatest, &least) &&
           !__builtin_sub_overflow(0, a_least, &greatest);
  }
  int64_t b_least, b_greatest;
  if (e.args.size() < 2 ||
      !Range(e.args[1], frame, lanes, b_least, b_greatest)) {
    return false;
  }
  switch (e.op) {
    case ExprOp::kAddIndex:
      return !__builtin_add_overflow(a_least, b_least, &least) &&
             !__builtin_add_overflow(a_greatest, b_greatest, &greatest);
    case ExprOp::kSubIndex:
      return !__builtin_sub_overflow(a_least, b_greatest, &least) &&
             !__builtin_sub_overflow(a_greatest, b_least, &greatest);
    case ExprOp::kMulIndex: {
      int64_t corners[4];
      if (__builtin_mul_overflow(a_least, b_least, &corners[0]) ||
          __builtin_mul_overflow(a_least, b_greatest, &corners[1]) ||
          __builtin_mul_overflow(a_greatest, b_least, &corners[2]) ||
          __builtin_mul_overflow(a_greatest, b_greatest, &corners[3])) {
        return false;
      }
      least = *std::min_element(corners, corners + 4);
      greatest = *std::max_element(corners, corners + 4);
      return true;
    }
    default:
      return false;
  }
}

bool Executor::LocateAffine(const View& view, absl::Span<const Expr> indices,
                            Frame& frame, LaneSet lanes) {
  // offset(l) = base + sum over the region's variables v of step[v] * v(l).
  // (Plain pointers: this runs for every access of every batch.)
  const size_t depth = region_vars_.size();
  const int64_t* const* vars = region_vars_.data();
  const int64_t* lo = region_lo_.data();
  const int64_t* hi = region_hi_.data();
  const int64_t* dims = view.dims.data();
  const int64_t* strides = view.strides.data();
  absl::InlinedVector<uint64_t, 4> steps(depth, 0);
  uint64_t* step = steps.data();
  uint64_t base = static_cast<uint64_t>(view.offset);
  int32_t first = lanes.first();
  for (size_t k = 0; k < indices.size(); ++k) {
    const Expr& index = indices[k];
    const uint64_t stride = static_cast<uint64_t>(strides[k]);
    if (!index.varying) {
      const int64_t value = ControlValue(index, frame, LaneSet{&first, 1});
      if (failed_ || value < 0 || value >= dims[k]) return false;
      base += stride * static_cast<uint64_t>(value);
      continue;
    }
    if (index.op == ExprOp::kControlVar) {
      // A loop variable of the region, the most common index.
      const int64_t v = index.value;
      if (lo[v] < 0 || hi[v] > dims[k]) return false;
      step[v] += stride;
      continue;
    }
    int64_t least, greatest;
    if (index.affine.empty() || !Range(index, frame, lanes, least, greatest) ||
        least < 0 || greatest >= dims[k]) {
      return false;
    }
    // The index on the first lane, as its expression computes it; the
    // others differ by the coefficients times their variables' changes,
    // which no step of the expression can overflow over the region.
    uint64_t at_first =
        static_cast<uint64_t>(ControlValue(index, frame, LaneSet{&first, 1}));
    if (failed_) return false;
    const int64_t* coefficients = index.affine.data();
    for (size_t v = 0; v < depth; ++v) {
      if (coefficients[v] == 0) continue;
      const uint64_t c = static_cast<uint64_t>(coefficients[v]);
      at_first -= c * static_cast<uint64_t>(vars[v][first]);
      step[v] += stride * c;
    }
    base += stride * at_first;
  }
  // The variables the offset moves with (a loop of one iteration does
  // not move it).
  const int64_t* moving_vars[4];
  uint64_t moving_steps[4];
  size_t moving = 0;
  for (size_t v = 0; v < depth; ++v) {
    if (step[v] == 0) continue;
    if (lo[v] + 1 == hi[v]) {
      base += step[v] * static_cast<uint64_t>(lo[v]);
      continue;
    }
    if (moving == 4) return false;
    moving_vars[moving] = vars[v];
    moving_steps[moving++] = step[v];
  }
  AffineOffsets(base, moving_steps, moving_vars, moving, lanes,
                offsets_.data());
  return true;
}

bool Executor::Locate(const View& view, absl::Span<const Expr> indices,
                      int32_t slot, Frame& frame, LaneSet lanes) {
  if (lanes.count > 1 && LocateAffine(view, indices, frame, lanes)) {
    return true;
  }
  if (failed_) return false;
  int64_t* offsets = offsets_.data();
  const int64_t* dims = view.dims.data();
  const int64_t* strides = view.strides.data();
  // The indices that do not vary over the lanes make one offset, added to
  // each lane's varying part.
  int64_t base = view.offset;
  bool varying = false;
  for (size_t k = 0; k < indices.size(); ++k) {
    const int64_t dim = dims[k];
    const int64_t stride = strides[k];
    auto outside = [&](int64_t i) { return i < 0 || i >= dim; };
    if (!indices[k].varying || lanes.count == 1) {
      int32_t first = lanes.first();
      const int64_t i = ControlValue(indices[k], frame, LaneSet{&first, 1});
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
  if (index.tensor_level) {
    Fail(index.where,
         absl::StrCat("index ", value, " is out of bounds for an array of ",
                      extent, " elements"));
    return;
  }
  Fail(index.where,
       absl::StrCat("index ", value, " is out of bounds for dimension ", dim,
                    " of '", frame.proc->view_names[slot], "' (size ", extent,
                    ")"));
}

absl::InlinedVector<int64_t, 4> Executor::IndicesAt(
    absl::Span<const Expr> indices, Frame& frame, int32_t lane) {
  absl::InlinedVector<int64_t, 4> values;
  // Computed again on the lane: a column holds an index only for the lanes
  // it was computed on, if any.
  for (const Expr& index : indices) {
    values.push_back(ControlValue(index, frame, LaneSet{&lane, 1}));
  }
  return values;
}

bool Executor::LoadOne(const Expr& e, const View& view, const Frame& frame,
                       int32_t lane, void* out) {
  const int64_t* dims = view.dims.data();
  const int64_t* strides = view.strides.data();
  int64_t offset = view.offset;
  for (size_t k = 0; k < e.args.size(); ++k) {
    int64_t index;
    if (!QuickControl(e.args[k], frame, lane, index) || index < 0 ||
        index >= dims[k]) {
      return false;
    }
    offset += index * strides[k];
  }
  const Buffer& buffer = *view.buffer;
  if (buffer.unwritten > 0 && !buffer.written[offset]) return false;
  element::WithElemType(e.type, [&]<ElemType E>() {
    static_cast<element::Repr<E>*>(out)[lane] = element::Load<E>(
        buffer.tensor.bytes.data() + offset * ElemTypeBytes(E));
  });
  return true;
}

void Executor::Load(const Expr& e, Frame& frame, LaneSet lanes, void* out) {
  const View& view = frame.views[e.slot];
  if (lanes.count == 1 && LoadOne(e, view, frame, lanes.first(), out)) {
    return;
  }
  if (!Locate(view, e.args, e.slot, frame, lanes)) return;
  const Buffer& buffer = *view.buffer;
  const int64_t* offsets = offsets_.data();
  if (buffer.unwritten > 0) {
    const int32_t bad = FirstFailingLane(
        lanes, [&](int32_t l) { return buffer.written[offsets[l]] != 0; });
    if (bad >= 0) {
      Fail(e.where, absl::StrCat("reads ",
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
