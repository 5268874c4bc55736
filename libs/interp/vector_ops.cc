#include "libs/interp/vector_ops.h"

#include <algorithm>
#include <cstring>

namespace tessel {
namespace {

using element::Repr;

// The row-major strides of `shape`.
std::vector<int64_t> Strides(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;) {
    strides[k - 1] = strides[k] * shape[k];
  }
  return strides;
}

template <ElemType E, ArithOp Combine>
void Contract(VectorOperand a, VectorOperand b, VectorOperand acc,
              const std::vector<std::vector<int>>& maps, Repr<E>* out) {
  // The extents of the iteration dimensions, and which are reductions.
  size_t count = 0;
  for (const auto& map : maps) {
    for (int d : map) count = std::max(count, static_cast<size_t>(d) + 1);
  }
  std::vector<int64_t> extents(count, 1);
  std::vector<bool> parallel(count, false);
  const VectorOperand* operands[] = {&a, &b, &acc};
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
  // Per operand, the lane stride of each iteration dimension.
  std::vector<std::vector<int64_t>> steps(2, std::vector<int64_t>(count, 0));
  for (size_t i = 0; i < 2; ++i) {
    const std::vector<int64_t> strides = Strides(operands[i]->shape);
    for (size_t k = 0; k < maps[i].size(); ++k) {
      steps[i][maps[i][k]] += strides[k];
    }
  }
  const auto* x = static_cast<const Repr<E>*>(a.lanes);
  const auto* y = static_cast<const Repr<E>*>(b.lanes);
  const auto* z = static_cast<const Repr<E>*>(acc.lanes);
  const std::vector<int64_t> acc_strides = Strides(acc.shape);
  const std::vector<int64_t> reduction_strides = Strides(reduction_shape);
  const int64_t reduction_lanes = NumLanes(reduction_shape);
  const int64_t lanes = NumLanes(acc.shape);
  std::vector<int64_t> point(count, 0);
  for (int64_t lane = 0; lane < lanes; ++lane) {
    for (size_t k = 0; k < maps[2].size(); ++k) {
      point[maps[2][k]] = lane / acc_strides[k] % acc.shape[k];
    }
    Repr<E> sum = z[lane];
    for (int64_t r = 0; r < reduction_lanes; ++r) {
      for (size_t k = 0; k < reductions.size(); ++k) {
        point[reductions[k]] = r / reduction_strides[k] % reduction_shape[k];
      }
      int64_t at[2] = {0, 0};
      for (size_t d = 0; d < count; ++d) {
        at[0] += point[d] * steps[0][d];
        at[1] += point[d] * steps[1][d];
      }
      Repr<E> product;
      // mul and add cannot fail.
      element::Arith<E, ArithOp::kMul>(x[at[0]], y[at[1]], product);
      element::Arith<E, Combine>(sum, product, sum);
    }
    out[lane] = sum;
  }
}

}  // namespace

int64_t NumLanes(absl::Span<const int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) count *= dim;
  return count;
}

// Where the processor has fused multiply-add instructions, fmaf and fma
// become one instruction instead of a call into the C library.
__attribute__((target_clones("fma", "default"))) void FmaColumn(
    ElemType type, const void* a, const void* b, const void* c, void* out,
    int64_t lanes) {
  element::WithElemType(type, [&]<ElemType E>() {
    const auto* x = static_cast<const Repr<E>*>(a);
    const auto* y = static_cast<const Repr<E>*>(b);
    const auto* z = static_cast<const Repr<E>*>(c);
    auto* result = static_cast<Repr<E>*>(out);
    for (int64_t l = 0; l < lanes; ++l) {
      result[l] = element::Fma<E>(x[l], y[l], z[l]);
    }
  });
}

void ContractColumn(ElemType type, ArithOp combine, VectorOperand a,
                    VectorOperand b, VectorOperand acc,
                    const std::vector<std::vector<int>>& maps, void* out) {
  element::WithElemType(type, [&]<ElemType E>() {
    element::WithArithOp(combine, [&]<ArithOp Combine>() {
      Contract<E, Combine>(a, b, acc, maps, static_cast<Repr<E>*>(out));
    });
  });
}

void MultiReduceColumn(ElemType type, ArithOp op, const void* v,
                       const void* acc,
                       const std::vector<std::vector<int>>& steps, bool halving,
                       int64_t lanes, void* out) {
  element::WithElemType(type, [&]<ElemType E>() {
    element::WithArithOp(op, [&]<ArithOp Op>() {
      const auto* x = static_cast<const Repr<E>*>(v);
      auto* result = static_cast<Repr<E>*>(out);
      std::copy_n(static_cast<const Repr<E>*>(acc), lanes, result);
      // add, mul, max and min cannot fail.
      if (!halving) {
        for (const std::vector<int>& step : steps) {
          for (int64_t l = 0; l < lanes; ++l) {
            element::Arith<E, Op>(result[l], x[step[l]], result[l]);
          }
        }
        return;
      }
      std::vector<Repr<E>> partial(steps.size());
      for (int64_t l = 0; l < lanes; ++l) {
        for (size_t s = 0; s < steps.size(); ++s) partial[s] = x[steps[s][l]];
        for (size_t half = steps.size() / 2; half >= 1; half /= 2) {
          for (size_t s = 0; s < half; ++s) {
            element::Arith<E, Op>(partial[s], partial[s + half], partial[s]);
          }
        }
        element::Arith<E, Op>(result[l], partial[0], result[l]);
      }
    });
  });
}

void ShuffleColumn(int bytes, const void* v, absl::Span<const int64_t> lanes,
                   void* out) {
  const auto* from = static_cast<const uint8_t*>(v);
  auto* to = static_cast<uint8_t*>(out);
  for (size_t l = 0; l < lanes.size(); ++l) {
    std::memcpy(to + l * bytes, from + lanes[l] * bytes, bytes);
  }
}

void ReduceColumn(ElemType type, ArithOp op, const void* v, int64_t lanes,
                  void* out) {
  element::WithElemType(type, [&]<ElemType E>() {
    element::WithArithOp(op, [&]<ArithOp Op>() {
      const auto* x = static_cast<const Repr<E>*>(v);
      Repr<E> result = x[0];
      // add, mul, max and min cannot fail.
      for (int64_t l = 1; l < lanes; ++l) {
        element::Arith<E, Op>(result, x[l], result);
      }
      *static_cast<Repr<E>*>(out) = result;
    });
  });
}

std::pair<int64_t, int64_t> VectorPart(absl::Span<const int64_t> shape,
                                       absl::Span<const int64_t> positions) {
  const std::vector<int64_t> strides = Strides(shape);
  int64_t first = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    first += positions[k] * strides[k];
  }
  const int64_t count =
      positions.empty() ? NumLanes(shape) : strides[positions.size() - 1];
  return {first, count};
}

}  // namespace tessel
