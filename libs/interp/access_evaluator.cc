#include "libs/interp/access_evaluator.h"

#include <cstring>

namespace tessel {
namespace tensor {
namespace {

int64_t Product(const std::vector<int64_t>& dims, size_t from, size_t to) {
  int64_t product = 1;
  for (size_t k = from; k < to; ++k) product *= dims[k];
  return product;
}

int64_t Count(const std::vector<int64_t>& dims) {
  return Product(dims, 0, dims.size());
}

std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size());
  int64_t stride = 1;
  for (size_t k = shape.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= shape[k];
  }
  return strides;
}

// Copies to `out`, in row-major order over `shape`, the elements of `in` at
// base + sum(index[k] * strides[k]): a transpose, windows or slice of `in`.
void Gather(const uint8_t* in, int width, int64_t base,
            const std::vector<int64_t>& shape,
            const std::vector<int64_t>& strides, uint8_t* out) {
  const int64_t count = Count(shape);
  std::vector<int64_t> index(shape.size(), 0);
  int64_t offset = base;
  for (int64_t e = 0; e < count; ++e) {
    std::memcpy(out + e * width, in + offset * width, width);
    for (size_t k = shape.size(); k-- > 0;) {
      if (++index[k] < shape[k]) {
        offset += strides[k];
        break;
      }
      offset -= (shape[k] - 1) * strides[k];
      index[k] = 0;
    }
  }
}

Scalar Zero(ElemType elem) {
  return IsFloat(elem) ? Scalar::Float(elem, 0) : Scalar::Int(elem, 0);
}

// `a op b`; access-pattern operators never divide, so never fail.
Scalar Apply(ArithOp op, const Scalar& a, const Scalar& b) {
  Scalar result;
  Arith(op, a, b, result);
  return result;
}

// (compute OP AP) with AP of shape ((a...) (c...)): OP on the compute
// elements of every access position, as written in docs/run-sim.md.
void Compute(const Term& term, const DenseArray& in, uint8_t* out) {
  const std::vector<int64_t>& shape = *in.shape;
  const size_t split = static_cast<size_t>(term.ints[0]);
  const int64_t positions = Product(shape, 0, split);
  const int64_t count = Product(shape, split, shape.size());
  const int width = ElemTypeBytes(in.elem);
  auto load = [&](int64_t i) {
    return LoadScalar(in.elem, in.data + i * width);
  };
  // The tuple dimension t of dotProd and the elementwise operators.
  const int64_t tuple = split < shape.size() ? shape[split] : 1;
  const int64_t inner = count / tuple;
  for (int64_t a = 0; a < positions; ++a) {
    const int64_t first = a * count;
    switch (term.access) {
      case AccessOp::kReduceSum:
      case AccessOp::kReduceMax: {
        const bool sum = term.access == AccessOp::kReduceSum;
        Scalar acc = sum ? Zero(in.elem) : load(first);
        for (int64_t c = sum ? 0 : 1; c < count; ++c) {
          acc =
              Apply(sum ? ArithOp::kAdd : ArithOp::kMax, acc, load(first + c));
        }
        StoreScalar(acc, out + a * width);
        break;
      }
      case AccessOp::kDotProd: {
        Scalar acc = Zero(in.elem);
        for (int64_t j = 0; j < inner; ++j) {
          Scalar product = load(first + j);
          for (int64_t t = 1; t < tuple; ++t) {
            product =
                Apply(ArithOp::kMul, product, load(first + t * inner + j));
          }
          acc = Apply(ArithOp::kAdd, acc, product);
        }
        StoreScalar(acc, out + a * width);
        break;
      }
      case AccessOp::kRelu:
        for (int64_t c = 0; c < count; ++c) {
          StoreScalar(Apply(ArithOp::kMax, load(first + c), Zero(in.elem)),
                      out + (first + c) * width);
        }
        break;
      case AccessOp::kElementwiseAdd:
      case AccessOp::kElementwiseMul: {
        const ArithOp op = term.access == AccessOp::kElementwiseAdd
                               ? ArithOp::kAdd
                               : ArithOp::kMul;
        for (int64_t j = 0; j < inner; ++j) {
          Scalar value = load(first + j);
          for (int64_t t = 1; t < tuple; ++t) {
            value = Apply(op, value, load(first + t * inner + j));
          }
          StoreScalar(value, out + (a * inner + j) * width);
        }
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace

void EvaluateAccessPattern(const Term& term, absl::Span<const DenseArray> args,
                           uint8_t* out) {
  const DenseArray& in = args[0];
  const std::vector<int64_t>& shape = *in.shape;
  const int width = ElemTypeBytes(term.type.elem);
  switch (term.access) {
    case AccessOp::kReshape:
      std::memcpy(out, in.data, Count(shape) * width);
      return;
    case AccessOp::kTranspose: {
      const std::vector<int64_t> strides = RowMajorStrides(shape);
      std::vector<int64_t> permuted;
      for (int64_t k : term.ints) permuted.push_back(strides[k]);
      Gather(in.data, width, 0, term.type.shape, permuted, out);
      return;
    }
    case AccessOp::kWindows: {
      // ((a...) (b...)) -> ((a... b'...) (w...)): element [a, p, q] is
      // in[a, p * stride + q].
      const std::vector<int64_t> strides = RowMajorStrides(shape);
      const size_t split = static_cast<size_t>(term.ints[0]);
      const size_t n = shape.size() - split;
      std::vector<int64_t> gather(strides.begin(), strides.begin() + split);
      for (size_t i = 0; i < n; ++i) {
        gather.push_back(term.ints[1 + n + i] * strides[split + i]);
      }
      for (size_t i = 0; i < n; ++i) gather.push_back(strides[split + i]);
      Gather(in.data, width, 0, term.type.shape, gather, out);
      return;
    }
    case AccessOp::kSlice: {
      const std::vector<int64_t> strides = RowMajorStrides(shape);
      const int64_t base = term.ints[1] * strides[term.ints[0]];
      Gather(in.data, width, base, term.type.shape, strides, out);
      return;
    }
    case AccessOp::kConcat: {
      const DenseArray& other = args[1];
      const size_t dim = static_cast<size_t>(term.ints[0]);
      const int64_t outer = Product(shape, 0, dim);
      const int64_t a_block = Product(shape, dim, shape.size()) * width;
      const int64_t b_block =
          Product(*other.shape, dim, other.shape->size()) * width;
      for (int64_t o = 0; o < outer; ++o) {
        std::memcpy(out, in.data + o * a_block, a_block);
        out += a_block;
        std::memcpy(out, other.data + o * b_block, b_block);
        out += b_block;
      }
      return;
    }
    case AccessOp::kPair:
    case AccessOp::kCartProd: {
      // pair: [a, 0, c] = x[a, c] and [a, 1, c] = y[a, c]; cartProd:
      // [a, b, 0, c] = x[a, c] and [a, b, 1, c] = y[b, c].
      const DenseArray& other = args[1];
      const bool pair = term.access == AccessOp::kPair;
      const size_t split = static_cast<size_t>(term.ints[0]);
      const int64_t xs = Product(shape, 0, split);
      const int64_t ys =
          pair ? 1
               : Product(*other.shape, 0, static_cast<size_t>(term.ints[1]));
      const int64_t block = Product(shape, split, shape.size()) * width;
      for (int64_t x = 0; x < xs; ++x) {
        for (int64_t y = 0; y < ys; ++y) {
          std::memcpy(out, in.data + x * block, block);
          out += block;
          std::memcpy(out, other.data + (pair ? x : y) * block, block);
          out += block;
        }
      }
      return;
    }
    default:
      Compute(term, in, out);
      return;
  }
}

}  // namespace tensor
}  // namespace tessel
