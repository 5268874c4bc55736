// The lane arithmetic of the vector level (formats/tir/README.md, "Vector
// level") that is more than one scalar operation per lane, on columns
// (column_ops.h) holding a vector's lanes in row-major order. Every lane
// computes what the scalar ops compute (element_ops.h). Pure functions,
// shared by the loop executor and its tests.
#ifndef TESSEL_LIBS_INTERP_VECTOR_OPS_H_
#define TESSEL_LIBS_INTERP_VECTOR_OPS_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "absl/types/span.h"
#include "libs/interp/column_ops.h"

namespace tessel {

int64_t NumLanes(absl::Span<const int64_t> shape);

// out = a * b + c on `lanes` lanes, each with one rounding.
void FmaColumn(ElemType type, const void* a, const void* b, const void* c,
               void* out, int64_t lanes);

// A vector operand of contract: its lanes and shape.
struct VectorOperand {
  const void* lanes = nullptr;
  absl::Span<const int64_t> shape;
};

// out = ACC combined (add, mul, max or min) with the products A * B over
// the reduction dimensions (see the spec): `maps` give A's, B's and ACC's
// iteration dimensions. Each product and combination is rounded as the
// scalar ops round, reduction indices in row-major order after ACC.
void ContractColumn(ElemType type, ArithOp combine, VectorOperand a,
                    VectorOperand b, VectorOperand acc,
                    const std::vector<std::vector<int>>& maps, void* out);

// out = acc, then per step, out[l] = out[l] op v[steps[r][l]]: a
// multi-reduction's lanes (ir::MultiReductionLanes), `lanes` of them.
// `halving` (ir::ReductionOrder::kHalving): the steps combined pairwise,
// step s with step s + half, until one is left, then out[l] = acc[l] op it.
void MultiReduceColumn(ElemType type, ArithOp op, const void* v,
                       const void* acc,
                       const std::vector<std::vector<int>>& steps, bool halving,
                       int64_t lanes, void* out);

// Lane l of out is lane lanes[l] of v (`bytes` a lane).
void ShuffleColumn(int bytes, const void* v, absl::Span<const int64_t> lanes,
                   void* out);

// The lanes combined with add, mul, max or min, from the first lane on in
// row-major order, into lane 0 of `out`.
void ReduceColumn(ElemType type, ArithOp op, const void* v, int64_t lanes,
                  void* out);

// The first lane and the number of lanes of the part of a vector of
// `shape` at the leading `positions`.
std::pair<int64_t, int64_t> VectorPart(absl::Span<const int64_t> shape,
                                       absl::Span<const int64_t> positions);

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_VECTOR_OPS_H_
