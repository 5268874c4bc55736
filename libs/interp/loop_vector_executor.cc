// The vector level run by the loop executor: vector variables live in
// buffers of their shape (like tensors, so that vector parameters are .npy
// files of that shape); transfers read and write the lanes that fall inside
// their tensor and take PAD for, or drop, the others; every lane computes
// what the scalar op computes (vector_ops.h).
#include <cstdint>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_executor_internal.h"

namespace tessel {
namespace loop {
namespace {

Vec Zeros(const Expr& e) {
  return Vec::Filled(e.type, e.shape, Scalar{e.type});
}

uint8_t* Address(const View& view, int64_t offset, ElemType elem) {
  return view.buffer->tensor.bytes.data() + offset * ElemTypeBytes(elem);
}

}  // namespace

bool Executor::LaneOffset(const View& view, const std::vector<int64_t>& base,
                          const std::vector<int64_t>& shape, int64_t lane,
                          int64_t& offset) {
  const size_t rank = view.dims.size();
  const size_t leading = rank - shape.size();
  offset = view.offset;
  for (size_t k = 0; k < leading; ++k) offset += base[k] * view.strides[k];
  // Lane (l1..ln) in row-major order: the last dimension varies fastest.
  for (size_t j = shape.size(); j-- > 0;) {
    const int64_t index = base[leading + j] + lane % shape[j];
    lane /= shape[j];
    if (index < 0 || index >= view.dims[leading + j]) return false;
    offset += index * view.strides[leading + j];
  }
  return true;
}

Vec Executor::ReadVector(const Expr& e, Frame& frame) {
  const View& view = frame.views[e.slot];
  const std::vector<int64_t> origin(e.shape.size(), 0);
  Vec result = Zeros(e);
  for (size_t lane = 0; lane < result.lanes.size(); ++lane) {
    int64_t offset = 0;
    LaneOffset(view, origin, e.shape, static_cast<int64_t>(lane), offset);
    if (!view.buffer->written[offset]) {
      Fail(e.where, absl::StrCat("reads lane ", lane, " of the vector '",
                                 frame.proc->view_names[e.slot],
                                 "' before it is written"));
      return result;
    }
    result.lanes[lane] = LoadScalar(e.type, Address(view, offset, e.type));
  }
  return result;
}

Vec Executor::TransferRead(const Expr& e, Frame& frame) {
  const View& view = frame.views[e.slot];
  const size_t rank = view.dims.size();
  const std::string& name = frame.proc->view_names[e.slot];
  std::vector<int64_t> base;
  for (size_t k = 0; k < rank; ++k) base.push_back(Control(e.args[k], frame));
  const Scalar pad = Data(e.args[rank], frame);
  Vec result = Zeros(e);
  if (failed_) return result;
  for (size_t k = 0; k + e.shape.size() < rank; ++k) {
    if (base[k] < 0 || base[k] >= view.dims[k]) {
      Fail(e.args[k].where,
           absl::StrCat("index ", base[k], " is out of bounds for dimension ",
                        k, " of '", name, "' (size ", view.dims[k], ")"));
      return result;
    }
  }
  for (size_t lane = 0; lane < result.lanes.size(); ++lane) {
    int64_t offset = 0;
    if (!LaneOffset(view, base, e.shape, static_cast<int64_t>(lane), offset)) {
      result.lanes[lane] = pad;
      continue;
    }
    if (!view.buffer->written[offset]) {
      Fail(e.where, absl::StrCat("reads lane ", lane, " from '", name,
                                 "' at an element not written yet"));
      return result;
    }
    result.lanes[lane] = LoadScalar(e.type, Address(view, offset, e.type));
  }
  return result;
}

std::vector<uint8_t> Executor::Mask(const Expr& e, Frame& frame) {
  switch (e.op) {
    case ExprOp::kMaskCompare:
      return VecCompare(e.compare, Vector(e.args[0], frame),
                        Vector(e.args[1], frame));
    case ExprOp::kMaskNot: {
      std::vector<uint8_t> mask = Mask(e.args[0], frame);
      for (uint8_t& lane : mask) lane = !lane;
      return mask;
    }
    default: {
      std::vector<uint8_t> mask = Mask(e.args[0], frame);
      const std::vector<uint8_t> other = Mask(e.args[1], frame);
      for (size_t lane = 0; lane < mask.size(); ++lane) {
        mask[lane] = e.op == ExprOp::kMaskAnd ? mask[lane] && other[lane]
                                              : mask[lane] || other[lane];
      }
      return mask;
    }
  }
}

Vec Executor::Vector(const Expr& e, Frame& frame) {
  switch (e.op) {
    case ExprOp::kVectorVar:
      return ReadVector(e, frame);
    case ExprOp::kTransferRead:
      return TransferRead(e, frame);
    case ExprOp::kBroadcast:
      return e.value ? BroadcastVec(Vector(e.args[0], frame), e.shape)
                     : BroadcastScalar(Data(e.args[0], frame), e.shape);
    case ExprOp::kVectorArith: {
      const Vec a = Vector(e.args[0], frame);
      const Vec b = Vector(e.args[1], frame);
      Vec result;
      LaneError error = VecArith(e.arith, a, b, result);
      CheckScalar(error.error, e, error.operand);
      return result;
    }
    case ExprOp::kVectorNegate:
      return VecNegate(Vector(e.args[0], frame));
    case ExprOp::kVectorSelect: {
      // Both operands are computed, as MLIR's select of vectors does: a
      // lane mask chooses lanes, not code.
      const std::vector<uint8_t> mask = Mask(e.args[0], frame);
      return VecSelect(mask, Vector(e.args[1], frame),
                       Vector(e.args[2], frame));
    }
    case ExprOp::kVectorCast: {
      const Vec a = Vector(e.args[0], frame);
      Vec result;
      LaneError error = VecCast(e.type, a, result);
      CheckScalar(error.error, e, error.operand);
      return result;
    }
    case ExprOp::kVectorFma: {
      const Vec a = Vector(e.args[0], frame);
      const Vec b = Vector(e.args[1], frame);
      return VecFma(a, b, Vector(e.args[2], frame));
    }
    case ExprOp::kContract: {
      const Vec a = Vector(e.args[0], frame);
      const Vec b = Vector(e.args[1], frame);
      return Contract(a, b, Vector(e.args[2], frame), e.maps);
    }
    case ExprOp::kExtractVector:
      return ExtractVec(Vector(e.args[0], frame), e.ints);
    case ExprOp::kInsert:
      if (e.value) {
        const Vec value = Vector(e.args[0], frame);
        return InsertVec(value, Vector(e.args[1], frame), e.ints);
      } else {
        const Scalar value = Data(e.args[0], frame);
        return InsertLane(value, Vector(e.args[1], frame), e.ints);
      }
    default:
      Fail(e.where, "internal error: not a vector expression");
      return Zeros(e);
  }
}

Scalar Executor::VectorScalar(const Expr& e, Frame& frame) {
  const Vec v = Vector(e.args[0], frame);
  if (e.op == ExprOp::kReduction) return Reduce(e.arith, v);
  return ExtractLane(v, e.ints);
}

void Executor::AssignVector(const Stmt& stmt, Frame& frame) {
  const Vec value = Vector(stmt.exprs[0], frame);
  if (failed_) return;
  const View& view = frame.views[stmt.slot];
  const std::vector<int64_t> origin(value.shape.size(), 0);
  for (size_t lane = 0; lane < value.lanes.size(); ++lane) {
    int64_t offset = 0;
    LaneOffset(view, origin, value.shape, static_cast<int64_t>(lane), offset);
    StoreScalar(value.lanes[lane], Address(view, offset, stmt.elem));
    view.buffer->written[offset] = 1;
  }
}

void Executor::TransferWrite(const Stmt& stmt, Frame& frame) {
  const View& view = frame.views[stmt.slot];
  const size_t rank = view.dims.size();
  std::vector<int64_t> base;
  for (size_t k = 0; k < rank; ++k) {
    base.push_back(Control(stmt.exprs[k], frame));
  }
  const Vec value = Vector(stmt.exprs[rank], frame);
  if (failed_) return;
  for (size_t k = 0; k + value.shape.size() < rank; ++k) {
    if (base[k] < 0 || base[k] >= view.dims[k]) {
      Fail(stmt.exprs[k].where,
           absl::StrCat("index ", base[k], " is out of bounds for dimension ",
                        k, " of '", frame.proc->view_names[stmt.slot],
                        "' (size ", view.dims[k], ")"));
      return;
    }
  }
  for (size_t lane = 0; lane < value.lanes.size(); ++lane) {
    int64_t offset = 0;
    // Lanes outside the tensor are masked off.
    if (!LaneOffset(view, base, value.shape, static_cast<int64_t>(lane),
                    offset)) {
      continue;
    }
    StoreScalar(value.lanes[lane], Address(view, offset, stmt.elem));
    view.buffer->written[offset] = 1;
  }
}

}  // namespace loop
}  // namespace tessel
