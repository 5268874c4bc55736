// The vector level run by the loop executor: a vector expression's column
// holds all its lanes; vector variables live in buffers of their shape
// (like tensors, so that vector parameters are .npy files of that shape);
// transfers read and write the lanes that fall inside their tensor and take
// PAD for, or drop, the others; every lane computes what the scalar op
// computes (element_ops.h).
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "absl/container/inlined_vector.h"

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"
#include "libs/interp/vector_ops.h"
#include "libs/ir/vector_lanes.h"

namespace tessel {
namespace loop {
namespace {

// Visits the lanes of a transfer of a vector of `shape` at `base` (the
// view's indices, its leading ones checked), in row-major lane order, as
// runs along the last dimension: inside(lane, offset, count, step) for
// `count` lanes from `lane` that fall inside `view`, at element offsets
// `offset`, `offset + step`, ...; outside(lane, count) for lanes that do
// not. Stops when a call returns false.
template <typename Inside, typename Outside>
void ForEachTransferRun(const View& view, absl::Span<const int64_t> base,
                        absl::Span<const int64_t> shape, Inside inside,
                        Outside outside) {
  const size_t n = shape.size();
  const size_t leading = view.dims.size() - n;
  const int64_t* dims = view.dims.data();
  const int64_t* strides = view.strides.data();
  int64_t origin = view.offset;
  for (size_t k = 0; k < leading; ++k) origin += base[k] * strides[k];
  const int64_t inner = shape[n - 1];
  const int64_t rows = NumLanes(shape) / inner;
  // The last dimension's lanes inside the view: [first, last).
  const int64_t b = base[leading + n - 1];
  const int64_t step = strides[leading + n - 1];
  const int64_t first = std::clamp<int64_t>(-b, 0, inner);
  const int64_t last =
      std::clamp<int64_t>(dims[leading + n - 1] - b, first, inner);
  origin += (b + first) * step;
  absl::InlinedVector<int64_t, 4> row(n - 1, 0);
  for (int64_t r = 0; r < rows; ++r) {
    // The row's offset, unless a leading vector dimension leaves the view.
    int64_t offset = origin;
    bool in_view = true;
    for (size_t j = 0; j + 1 < n; ++j) {
      const int64_t index = base[leading + j] + row[j];
      in_view = in_view && index >= 0 && index < dims[leading + j];
      offset += index * strides[leading + j];
    }
    const int64_t lane = r * inner;
    if (!in_view) {
      if (!outside(lane, inner)) return;
    } else if ((first > 0 && !outside(lane, first)) ||
               (last > first &&
                !inside(lane + first, offset, last - first, step)) ||
               (last < inner && !outside(lane + last, inner - last))) {
      return;
    }
    for (size_t j = row.size(); j-- > 0;) {
      if (++row[j] < shape[j]) break;
      row[j] = 0;
    }
  }
}

// The element offset in `view`'s buffer of the lanes of a transfer of a
// vector of `type` and `shape` at `base` when they are consecutive elements
// of it, all inside the view, and held in a column as they are stored (f32,
// f64, i32); else -1.
int64_t ConsecutiveLanes(const View& view, absl::Span<const int64_t> base,
                         absl::Span<const int64_t> shape, ElemType type) {
  if (ColumnBytes(type) != ElemTypeBytes(type)) return -1;
  const size_t rank = view.dims.size();
  const size_t leading = rank - shape.size();
  const int64_t* dims = view.dims.data();
  const int64_t* strides = view.strides.data();
  const int64_t* at = base.data();
  const int64_t* extents = shape.data();
  int64_t offset = view.offset;
  for (size_t k = 0; k < leading; ++k) offset += at[k] * strides[k];
  int64_t expected = 1;
  for (size_t k = rank; k-- > leading;) {
    const int64_t extent = extents[k - leading];
    if (at[k] < 0 || at[k] + extent > dims[k] ||
        (extent > 1 && strides[k] != expected)) {
      return -1;
    }
    offset += at[k] * strides[k];
    expected *= extent;
  }
  return offset;
}

// The lanes of such a transfer where they are stored, when they are
// consecutive and written; else null.
const void* LanesInPlace(const View& view, absl::Span<const int64_t> base,
                         absl::Span<const int64_t> shape, ElemType type) {
  const Buffer& buffer = *view.buffer;
  if (buffer.unwritten > 0) return nullptr;
  const int64_t offset = ConsecutiveLanes(view, base, shape, type);
  if (offset < 0) return nullptr;
  return buffer.tensor.bytes.data() + offset * ElemTypeBytes(type);
}

// The first of `count` elements at offset, offset + step, ... that is not
// written yet, or -1.
int64_t FirstUnwritten(const Buffer& buffer, int64_t offset, int64_t count,
                       int64_t step) {
  if (buffer.unwritten == 0) return -1;
  for (int64_t i = 0; i < count; ++i) {
    if (!buffer.written[offset + i * step]) return i;
  }
  return -1;
}

// Writes the lanes of a vector that fall inside the view (a vector
// variable's buffer holds them all).
template <ElemType E>
void WriteLanes(const void* lanes, const View& view,
                absl::Span<const int64_t> base,
                absl::Span<const int64_t> shape) {
  const auto* from = static_cast<const element::Repr<E>*>(lanes);
  Buffer& buffer = *view.buffer;
  uint8_t* data = buffer.tensor.bytes.data();
  if (const int64_t offset = ConsecutiveLanes(view, base, shape, E);
      offset >= 0) {
    const int64_t count = NumLanes(shape);
    // memmove: `from` may be these very elements, read in place.
    std::memmove(data + offset * ElemTypeBytes(E), from,
                 count * ElemTypeBytes(E));
    if (buffer.unwritten > 0) buffer.MarkWritten(offset, count);
    return;
  }
  const size_t width = ElemTypeBytes(E);
  ForEachTransferRun(
      view, base, shape,
      [&](int64_t lane, int64_t offset, int64_t count, int64_t step) {
        if (step == 1 && sizeof(element::Repr<E>) == width) {
          // memmove: `from` may be these very elements, read in place.
          std::memmove(data + offset * width, from + lane, count * width);
        } else {
          for (int64_t i = 0; i < count; ++i) {
            element::Store<E>(from[lane + i],
                              data + (offset + i * step) * width);
          }
        }
        if (buffer.unwritten > 0) {
          for (int64_t i = 0; i < count; ++i) {
            buffer.MarkWritten(offset + i * step);
          }
        }
        return true;
      },
      // Lanes outside the tensor are masked off.
      [](int64_t, int64_t) { return true; });
}

// Reads the lanes of a vector that fall inside the view into `out`, `pad`
// elsewhere; false, with the lane, at the first element not written yet.
template <ElemType E>
bool ReadLanes(const View& view, absl::Span<const int64_t> base,
               absl::Span<const int64_t> shape, element::Repr<E> pad,
               void* out, int64_t& unwritten_lane) {
  auto* result = static_cast<element::Repr<E>*>(out);
  const Buffer& buffer = *view.buffer;
  const uint8_t* data = buffer.tensor.bytes.data();
  const int width = ElemTypeBytes(E);
  bool ok = true;
  ForEachTransferRun(
      view, base, shape,
      [&](int64_t lane, int64_t offset, int64_t count, int64_t step) {
        const int64_t bad = FirstUnwritten(buffer, offset, count, step);
        if (bad >= 0) {
          unwritten_lane = lane + bad;
          ok = false;
          return false;
        }
        if (step == 1 && sizeof(element::Repr<E>) == width) {
          // f32, f64 and i32 lanes are held as they are stored.
          std::memcpy(result + lane, data + offset * width, count * width);
        } else {
          for (int64_t i = 0; i < count; ++i) {
            result[lane + i] =
                element::Load<E>(data + (offset + i * step) * width);
          }
        }
        return true;
      },
      [&](int64_t lane, int64_t count) {
        std::fill_n(result + lane, count, pad);
        return true;
      });
  return ok;
}

// Copies `count` values of `bytes` from lane `from` of one column to lane
// `to` of another.
void CopyLanes(int bytes, const void* source, int64_t from, void* target,
               int64_t to, int64_t count) {
  std::memcpy(static_cast<uint8_t*>(target) + to * bytes,
              static_cast<const uint8_t*>(source) + from * bytes,
              count * bytes);
}

}  // namespace

bool Executor::TransferLanes(const View& view, absl::Span<const int64_t> base,
                             absl::Span<const int64_t> shape,
                             absl::Span<const int64_t> lane_dims,
                             const int64_t* mask, ElemType type,
                             const void* pad, void* read_into,
                             const void* write_from, int64_t& unwritten_lane) {
  Buffer& buffer = *view.buffer;
  const size_t rank = view.dims.size();
  const int width = ElemTypeBytes(type);
  const int bytes = ColumnBytes(type);
  uint8_t* data = buffer.tensor.bytes.data();
  absl::InlinedVector<int64_t, 4> position(shape.size(), 0);
  const int64_t count = NumLanes(shape);
  for (int64_t lane = 0; lane < count; ++lane) {
    // The lane's element, unless the mask drops it or it leaves the view.
    absl::InlinedVector<int64_t, 4> index(base.begin(), base.end());
    for (size_t j = 0; j < shape.size(); ++j) index[lane_dims[j]] += position[j];
    bool inside = mask == nullptr || mask[lane] != 0;
    int64_t offset = view.offset;
    for (size_t k = 0; k < rank; ++k) {
      inside = inside && index[k] >= 0 && index[k] < view.dims[k];
      offset += index[k] * view.strides[k];
    }
    if (read_into != nullptr) {
      if (!inside) {
        CopyLanes(bytes, pad, 0, read_into, lane, 1);
      } else if (buffer.unwritten > 0 && !buffer.written[offset]) {
        unwritten_lane = lane;
        return false;
      } else {
        element::WithElemType(type, [&]<ElemType E>() {
          static_cast<element::Repr<E>*>(read_into)[lane] =
              element::Load<E>(data + offset * width);
        });
      }
    } else if (inside) {
      element::WithElemType(type, [&]<ElemType E>() {
        element::Store<E>(
            static_cast<const element::Repr<E>*>(write_from)[lane],
            data + offset * width);
      });
      if (buffer.unwritten > 0) buffer.MarkWritten(offset);
    }
    for (size_t j = shape.size(); j-- > 0;) {
      if (++position[j] < shape[j]) break;
      position[j] = 0;
    }
  }
  return true;
}

const void* Executor::ReadVector(const Expr& e, Frame& frame, void* out) {
  const View& view = frame.views[e.slot];
  // A vector variable's buffer holds its lanes in order (there are no
  // windows of vectors): read them in place once they are all written.
  const Buffer& buffer = *view.buffer;
  if (buffer.unwritten == 0 && buffer.tensor.num_elements() == e.lanes &&
      ColumnBytes(e.type) == ElemTypeBytes(e.type)) {
    return buffer.tensor.bytes.data() + view.offset * ElemTypeBytes(e.type);
  }
  const absl::InlinedVector<int64_t, 4> origin(e.shape.size(), 0);
  int64_t lane = 0;
  const bool ok = element::WithElemType(e.type, [&]<ElemType E>() {
    return ReadLanes<E>(view, origin, e.shape, {}, out, lane);
  });
  if (!ok) {
    Fail(e.where, absl::StrCat("reads lane ", lane, " of the vector '",
                               frame.proc->view_names[e.slot],
                               "' before it is written"));
  }
  return out;
}

namespace {

// Is `lane_dims` the minor identity of a view of `rank` (lane dimension j
// along view dimension rank - n + j)?
bool IsMinorIdentity(absl::Span<const int64_t> lane_dims, size_t rank) {
  for (size_t j = 0; j < lane_dims.size(); ++j) {
    if (lane_dims[j] != static_cast<int64_t>(rank - lane_dims.size() + j)) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool Executor::CheckTransferBase(absl::Span<const Expr> indices,
                                 absl::Span<const int64_t> base,
                                 absl::Span<const int64_t> lane_dims,
                                 int32_t slot, Frame& frame) {
  const int64_t* dims = frame.views[slot].dims.data();
  for (size_t k = 0; k < indices.size(); ++k) {
    if (std::find(lane_dims.begin(), lane_dims.end(),
                  static_cast<int64_t>(k)) != lane_dims.end()) {
      continue;
    }
    if (base[k] < 0 || base[k] >= dims[k]) {
      Fail(indices[k].where,
           absl::StrCat("index ", base[k], " is out of bounds for dimension ",
                        k, " of '", frame.proc->view_names[slot], "' (size ",
                        dims[k], ")"));
      return false;
    }
  }
  return true;
}

const void* Executor::TransferRead(const Expr& e, Frame& frame, void* out) {
  const View& view = frame.views[e.slot];
  const size_t rank = view.dims.size();
  absl::InlinedVector<int64_t, 4> base;
  for (size_t k = 0; k < rank; ++k) {
    base.push_back(ControlValue(e.args[k], frame));
  }
  const void* pad = Data(e.args[rank], frame, LaneSet::Dense(1));
  const int64_t* mask = e.value ? Mask(e.args[rank + 1], frame) : nullptr;
  if (failed_ || !CheckTransferBase(absl::MakeConstSpan(e.args).first(rank),
                                    base, e.ints, e.slot, frame)) {
    return out;
  }
  if (mask != nullptr || !IsMinorIdentity(e.ints, rank)) {
    int64_t lane = 0;
    if (!TransferLanes(view, base, e.shape, e.ints, mask, e.type, pad, out,
                       nullptr, lane)) {
      Fail(e.where, absl::StrCat("reads lane ", lane, " from '",
                                 frame.proc->view_names[e.slot],
                                 "' at an element not written yet"));
    }
    return out;
  }
  if (const void* lanes = LanesInPlace(view, base, e.shape, e.type)) {
    return lanes;
  }
  int64_t lane = 0;
  const bool ok = element::WithElemType(e.type, [&]<ElemType E>() {
    return ReadLanes<E>(view, base, e.shape,
                        *static_cast<const element::Repr<E>*>(pad), out, lane);
  });
  if (!ok) {
    Fail(e.where, absl::StrCat("reads lane ", lane, " from '",
                               frame.proc->view_names[e.slot],
                               "' at an element not written yet"));
  }
  return out;
}

const int64_t* Executor::Mask(const Expr& e, Frame& frame) {
  int64_t* out = frame.Column<int64_t>(e);
  const LaneSet lanes = LaneSet::Dense(e.lanes);
  switch (e.op) {
    case ExprOp::kMaskCompare: {
      const void* a = Vector(e.args[0], frame);
      const void* b = Vector(e.args[1], frame);
      CompareColumn(e.args[0].type, e.compare, a, b, out, lanes);
      return out;
    }
    case ExprOp::kMaskCreate: {
      // MLIR's create_mask: lane (k...) is set where every k_j < bound_j.
      absl::InlinedVector<int64_t, 4> bounds;
      for (const Expr& bound : e.args) {
        bounds.push_back(ControlValue(bound, frame));
      }
      const std::vector<int64_t> strides = ir::LaneStridesOf(e.shape);
      ForEachLane(lanes, [&](int32_t l) {
        bool set = true;
        for (size_t j = 0; j < e.shape.size(); ++j) {
          set = set && (l / strides[j]) % e.shape[j] < bounds[j];
        }
        out[l] = set;
      });
      return out;
    }
    case ExprOp::kMaskNot: {
      const int64_t* a = Mask(e.args[0], frame);
      ForEachLane(lanes, [&](int32_t l) { out[l] = !a[l]; });
      return out;
    }
    default: {
      // Both operands are computed: masks choose lanes, not code.
      const int64_t* a = Mask(e.args[0], frame);
      const int64_t* b = Mask(e.args[1], frame);
      const bool is_and = e.op == ExprOp::kMaskAnd;
      ForEachLane(lanes, [&](int32_t l) {
        out[l] = is_and ? a[l] && b[l] : a[l] || b[l];
      });
      return out;
    }
  }
}

const void* Executor::Vector(const Expr& e, Frame& frame) {
  void* out = frame.Column(e);
  const int64_t lanes = e.lanes;
  const LaneSet all = LaneSet::Dense(e.lanes);
  const int bytes = ColumnBytes(e.type);
  switch (e.op) {
    case ExprOp::kVectorVar:
      return ReadVector(e, frame, out);
    case ExprOp::kTransferRead:
      return TransferRead(e, frame, out);
    case ExprOp::kBroadcast: {
      // A scalar, or a vector whose shape is a suffix of this one: lane L
      // of the result is lane L mod |source| of the source.
      const Expr& source = e.args[0];
      if (!e.value) {
        const void* value = Data(source, frame, LaneSet::Dense(1));
        element::WithElemType(e.type, [&]<ElemType E>() {
          std::fill_n(static_cast<element::Repr<E>*>(out), lanes,
                      *static_cast<const element::Repr<E>*>(value));
        });
        return out;
      }
      const void* value = Vector(source, frame);
      const int64_t size = source.lanes;
      for (int64_t lane = 0; lane < lanes; lane += size) {
        CopyLanes(bytes, value, 0, out, lane, size);
      }
      return out;
    }
    case ExprOp::kVectorArith: {
      const void* a = Vector(e.args[0], frame);
      const void* b = Vector(e.args[1], frame);
      if (failed_) return out;
      if (ArithColumn(e.type, e.arith, a, b, out, all) >= 0) {
        Fail(e.where, ScalarErrorText(ScalarError::kDivisionByZero));
      }
      return out;
    }
    case ExprOp::kVectorNegate:
      NegateColumn(e.type, Vector(e.args[0], frame), out, all);
      return out;
    case ExprOp::kVectorSelect: {
      // Both operands are computed, as MLIR's select of vectors does: a
      // lane mask chooses lanes, not code.
      const int64_t* mask = Mask(e.args[0], frame);
      const void* a = Vector(e.args[1], frame);
      const void* b = Vector(e.args[2], frame);
      SelectColumn(bytes, mask, a, b, out, all);
      return out;
    }
    case ExprOp::kVectorCast: {
      const void* operand = Vector(e.args[0], frame);
      if (failed_) return out;
      const int32_t bad = CastColumn(e.args[0].type, e.type, operand, out, all);
      if (bad >= 0) CastFailed(e, e.args[0].type, operand, bad);
      return out;
    }
    case ExprOp::kVectorFma: {
      const void* a = Vector(e.args[0], frame);
      const void* b = Vector(e.args[1], frame);
      const void* c = Vector(e.args[2], frame);
      FmaColumn(e.type, a, b, c, out, lanes);
      return out;
    }
    case ExprOp::kContract: {
      const void* a = Vector(e.args[0], frame);
      const void* b = Vector(e.args[1], frame);
      const void* acc = Vector(e.args[2], frame);
      ContractColumn(e.type, e.arith, {a, e.args[0].shape},
                     {b, e.args[1].shape}, {acc, e.args[2].shape}, e.maps,
                     out);
      return out;
    }
    case ExprOp::kShuffle:
      ShuffleColumn(bytes, Vector(e.args[0], frame), e.ints, out);
      return out;
    case ExprOp::kInsertSlice: {
      const void* x = Vector(e.args[0], frame);
      const void* v = Vector(e.args[1], frame);
      CopyLanes(bytes, v, 0, out, 0, lanes);
      for (int64_t l = 0; l < lanes; ++l) {
        if (e.ints[l] >= 0) CopyLanes(bytes, x, e.ints[l], out, l, 1);
      }
      return out;
    }
    case ExprOp::kMultiReduction: {
      const void* v = Vector(e.args[0], frame);
      const void* acc = Vector(e.args[1], frame);
      MultiReduceColumn(e.type, e.arith, v, acc, e.maps, e.value != 0, lanes,
                        out);
      return out;
    }
    case ExprOp::kExtractVector: {
      const Expr& source = e.args[0];
      const void* v = Vector(source, frame);
      auto [first, count] = VectorPart(source.shape, e.ints);
      CopyLanes(bytes, v, first, out, 0, count);
      return out;
    }
    case ExprOp::kInsert: {
      // (insert VALUE V POSITIONS): V with the part at POSITIONS replaced.
      const void* value = e.value ? Vector(e.args[0], frame)
                                  : Data(e.args[0], frame, LaneSet::Dense(1));
      const void* v = Vector(e.args[1], frame);
      CopyLanes(bytes, v, 0, out, 0, lanes);
      auto [first, count] = VectorPart(e.shape, e.ints);
      CopyLanes(bytes, value, 0, out, first, e.value ? count : 1);
      return out;
    }
    default:
      Fail(e.where, "internal error: not a vector expression");
      return out;
  }
}

void Executor::VectorScalar(const Expr& e, Frame& frame, void* out) {
  const Expr& source = e.args[0];
  const void* v = Vector(source, frame);
  if (failed_) return;
  if (e.op == ExprOp::kReduction) {
    ReduceColumn(e.type, e.arith, v, source.lanes, out);
    return;
  }
  CopyLanes(ColumnBytes(e.type), v, VectorPart(source.shape, e.ints).first,
            out, 0, 1);
}

void Executor::AssignVector(const Stmt& stmt, Frame& frame) {
  const Expr& value = stmt.exprs[0];
  const void* lanes = Vector(value, frame);
  if (failed_) return;
  const absl::InlinedVector<int64_t, 4> origin(value.shape.size(), 0);
  element::WithElemType(stmt.elem, [&]<ElemType E>() {
    WriteLanes<E>(lanes, frame.views[stmt.slot], origin, value.shape);
  });
}

void Executor::TransferWrite(const Stmt& stmt, Frame& frame) {
  const View& view = frame.views[stmt.slot];
  const size_t rank = view.dims.size();
  const Expr& value = stmt.exprs[rank];
  absl::InlinedVector<int64_t, 4> base;
  for (size_t k = 0; k < rank; ++k) {
    base.push_back(ControlValue(stmt.exprs[k], frame));
  }
  const void* lanes = Vector(value, frame);
  const int64_t* mask =
      stmt.exprs.size() > rank + 1 ? Mask(stmt.exprs[rank + 1], frame) : nullptr;
  if (failed_ ||
      !CheckTransferBase(absl::MakeConstSpan(stmt.exprs).first(rank), base,
                         stmt.lane_dims, stmt.slot, frame)) {
    return;
  }
  if (mask != nullptr || !IsMinorIdentity(stmt.lane_dims, rank)) {
    int64_t unused = 0;
    TransferLanes(view, base, value.shape, stmt.lane_dims, mask, stmt.elem,
                  nullptr, nullptr, lanes, unused);
    return;
  }
  element::WithElemType(stmt.elem, [&]<ElemType E>() {
    WriteLanes<E>(lanes, view, base, value.shape);
  });
}

}  // namespace loop
}  // namespace tessel
