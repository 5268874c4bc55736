#include "libs/interp/vector_ops.h"

#include <cmath>
#include <utility>

namespace tessel {
namespace {

// The row-major strides of `shape`.
std::vector<int64_t> Strides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) {
    strides[k - 1] = strides[k] * shape[k];
  }
  return strides;
}

// The first lane of the part at `positions` and how many lanes it has.
std::pair<int64_t, int64_t> Part(const Vec& v,
                                 absl::Span<const int64_t> positions) {
  std::vector<int64_t> strides = Strides(v.shape);
  int64_t first = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    first += positions[k] * strides[k];
  }
  int64_t count =
      positions.empty() ? NumLanes(v.shape) : strides[positions.size() - 1];
  return {first, count};
}

}  // namespace

Vec Vec::Filled(ElemType elem, std::vector<int64_t> shape,
                const Scalar& value) {
  Vec v;
  v.elem = elem;
  v.lanes.assign(NumLanes(shape), value);
  v.shape = std::move(shape);
  return v;
}

int64_t NumLanes(absl::Span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

LaneError VecArith(ArithOp op, const Vec& a, const Vec& b, Vec& result) {
  result = Vec::Filled(a.elem, a.shape, Scalar{a.elem});
  for (size_t lane = 0; lane < a.lanes.size(); ++lane) {
    ScalarError error =
        Arith(op, a.lanes[lane], b.lanes[lane], result.lanes[lane]);
    if (error != ScalarError::kNone) {
      return {error, static_cast<int64_t>(lane), a.lanes[lane]};
    }
  }
  return {};
}

Vec VecNegate(const Vec& a) {
  Vec result = a;
  for (Scalar& lane : result.lanes) lane = Negate(lane);
  return result;
}

LaneError VecCast(ElemType to, const Vec& a, Vec& result) {
  result = Vec::Filled(to, a.shape, Scalar{to});
  for (size_t lane = 0; lane < a.lanes.size(); ++lane) {
    ScalarError error = Cast(to, a.lanes[lane], result.lanes[lane]);
    if (error != ScalarError::kNone) {
      return {error, static_cast<int64_t>(lane), a.lanes[lane]};
    }
  }
  return {};
}

Scalar FusedMultiplyAdd(const Scalar& a, const Scalar& b, const Scalar& c) {
  switch (a.type) {
    case ElemType::kF16:
      // One rounding, to f16, as for f64: the product of two f16 values is
      // exact in double, and so is the sum unless one addend lies far
      // below the other's last bit, too far for it to move the sum to or
      // across an f16 midpoint: rounding to double first changes nothing.
    case ElemType::kF64:
      return Scalar::Float(a.type, std::fma(a.f, b.f, c.f));
    case ElemType::kF32:
      // One rounding, to float: fmaf is exact before it.
      return Scalar::Float(
          a.type, std::fmaf(static_cast<float>(a.f), static_cast<float>(b.f),
                            static_cast<float>(c.f)));
    case ElemType::kI8:
    case ElemType::kI32: {
      // Wrapping the product and then the sum is wrapping the exact
      // result: integers have no rounding to fuse.
      Scalar product{a.type};
      Scalar sum{a.type};
      Arith(ArithOp::kMul, a, b, product);
      Arith(ArithOp::kAdd, product, c, sum);
      return sum;
    }
  }
  return a;
}

Vec VecFma(const Vec& a, const Vec& b, const Vec& c) {
  Vec result = a;
  for (size_t lane = 0; lane < a.lanes.size(); ++lane) {
    result.lanes[lane] =
        FusedMultiplyAdd(a.lanes[lane], b.lanes[lane], c.lanes[lane]);
  }
  return result;
}

Vec VecSelect(absl::Span<const uint8_t> mask, const Vec& a, const Vec& b) {
  Vec result = a;
  for (size_t lane = 0; lane < a.lanes.size(); ++lane) {
    if (!mask[lane]) result.lanes[lane] = b.lanes[lane];
  }
  return result;
}

std::vector<uint8_t> VecCompare(CompareOp op, const Vec& a, const Vec& b) {
  std::vector<uint8_t> mask(a.lanes.size());
  for (size_t lane = 0; lane < a.lanes.size(); ++lane) {
    mask[lane] = Compare(op, a.lanes[lane], b.lanes[lane]);
  }
  return mask;
}

Vec BroadcastScalar(const Scalar& value, std::vector<int64_t> shape) {
  return Vec::Filled(value.type, std::move(shape), value);
}

Vec BroadcastVec(const Vec& source, std::vector<int64_t> shape) {
  // The source's shape is a suffix of `shape`: lane L of the result is
  // lane L mod |source| of the source.
  Vec result = Vec::Filled(source.elem, std::move(shape), Scalar{source.elem});
  const int64_t size = static_cast<int64_t>(source.lanes.size());
  for (size_t lane = 0; lane < result.lanes.size(); ++lane) {
    result.lanes[lane] = source.lanes[static_cast<int64_t>(lane) % size];
  }
  return result;
}

Vec Contract(const Vec& a, const Vec& b, const Vec& acc,
             const std::vector<std::vector<int>>& maps) {
  // The extents of the iteration dimensions, and which are reductions.
  size_t count = 0;
  for (const auto& map : maps) {
    for (int d : map) count = std::max(count, static_cast<size_t>(d) + 1);
  }
  std::vector<int64_t> extents(count, 1);
  std::vector<bool> parallel(count, false);
  const Vec* operands[] = {&a, &b, &acc};
  for (size_t i = 0; i < 3; ++i) {
    for (size_t k = 0; k < maps[i].size(); ++k) {
      extents[maps[i][k]] = operands[i]->shape[k];
      if (i == 2) parallel[maps[i][k]] = true;
    }
  }
  std::vector<int> reductions;
  std::vector<int64_t> reduction_shape;
  for (size_t d = 0; d < count; ++d) {
    if (!parallel[d]) {
      reductions.push_back(static_cast<int>(d));
      reduction_shape.push_back(extents[d]);
    }
  }
  auto offset = [&](size_t i, const std::vector<int64_t>& point) {
    std::vector<int64_t> strides = Strides(operands[i]->shape);
    int64_t lane = 0;
    for (size_t k = 0; k < maps[i].size(); ++k) {
      lane += point[maps[i][k]] * strides[k];
    }
    return lane;
  };
  Vec result = acc;
  std::vector<int64_t> acc_strides = Strides(acc.shape);
  std::vector<int64_t> reduction_strides = Strides(reduction_shape);
  const int64_t reduction_lanes = NumLanes(reduction_shape);
  std::vector<int64_t> point(count, 0);
  for (size_t lane = 0; lane < acc.lanes.size(); ++lane) {
    for (size_t k = 0; k < maps[2].size(); ++k) {
      point[maps[2][k]] =
          static_cast<int64_t>(lane) / acc_strides[k] % acc.shape[k];
    }
    Scalar sum = acc.lanes[lane];
    for (int64_t r = 0; r < reduction_lanes; ++r) {
      for (size_t k = 0; k < reductions.size(); ++k) {
        point[reductions[k]] = r / reduction_strides[k] % reduction_shape[k];
      }
      Scalar product{acc.elem};
      Arith(ArithOp::kMul, a.lanes[offset(0, point)], b.lanes[offset(1, point)],
            product);
      Scalar next{acc.elem};
      Arith(ArithOp::kAdd, sum, product, next);
      sum = next;
    }
    result.lanes[lane] = sum;
  }
  return result;
}

Vec ExtractVec(const Vec& v, absl::Span<const int64_t> positions) {
  auto [first, count] = Part(v, positions);
  Vec result;
  result.elem = v.elem;
  result.shape.assign(v.shape.begin() + positions.size(), v.shape.end());
  result.lanes.assign(v.lanes.begin() + first, v.lanes.begin() + first + count);
  return result;
}

Scalar ExtractLane(const Vec& v, absl::Span<const int64_t> positions) {
  return v.lanes[Part(v, positions).first];
}

Vec InsertVec(const Vec& value, const Vec& v,
              absl::Span<const int64_t> positions) {
  Vec result = v;
  auto [first, count] = Part(v, positions);
  for (int64_t k = 0; k < count; ++k) {
    result.lanes[first + k] = value.lanes[k];
  }
  return result;
}

Vec InsertLane(const Scalar& value, const Vec& v,
               absl::Span<const int64_t> positions) {
  Vec result = v;
  result.lanes[Part(v, positions).first] = value;
  return result;
}

Scalar Reduce(ArithOp op, const Vec& v) {
  Scalar result = v.lanes[0];
  for (size_t lane = 1; lane < v.lanes.size(); ++lane) {
    Scalar next{v.elem};
    // add, mul, max and min cannot fail.
    Arith(op, result, v.lanes[lane], next);
    result = next;
  }
  return result;
}

}  // namespace tessel
