// What the vector ops that move lanes without computing (transpose,
// shape-cast, strided slices, the operands of an outer product and of a
// multi-reduction) and the clauses of transfers mean, lane by lane, once:
// run-sim, emit-c and vectorize read them from here. Lanes are numbered
// row-major (formats/tir/README.md, "Vector level").
#ifndef TESSEL_LIBS_IR_VECTOR_LANES_H_
#define TESSEL_LIBS_IR_VECTOR_LANES_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/types/span.h"
#include "libs/ir/keywords.h"
#include "libs/ir/node.h"
#include "libs/ir/type.h"

namespace tessel::ir {

// The dimensions of a vector type.
std::vector<int64_t> VectorShapeOf(const Type& type);

// The row-major strides of the lanes of a vector of `shape`.
std::vector<int64_t> LaneStridesOf(absl::Span<const int64_t> shape);
int64_t LaneCount(absl::Span<const int64_t> shape);

// Lane tables: entry l is the lane of the source that lane l of the result
// takes.
// (transpose V (list P...)): result dimension j is V's dimension P_j.
std::vector<int64_t> TransposeLanes(absl::Span<const int64_t> shape,
                                    absl::Span<const int64_t> permutation);
// (extract-strided-slice V OFFSETS SIZES STEPS) on the leading
// offsets.size() dimensions of V; the result's shape is SIZES then V's
// remaining dimensions.
std::vector<int64_t> StridedSliceLanes(absl::Span<const int64_t> shape,
                                       absl::Span<const int64_t> offsets,
                                       absl::Span<const int64_t> sizes,
                                       absl::Span<const int64_t> steps);
// (insert-strided-slice X V OFFSETS STEPS): for each lane of V, the lane of
// X written there, or -1 where V's lane stays. X's dimensions lie along V's
// trailing ones; OFFSETS has one entry per dimension of V, STEPS one per
// dimension of X.
std::vector<int64_t> InsertedSliceLanes(absl::Span<const int64_t> x_shape,
                                        absl::Span<const int64_t> v_shape,
                                        absl::Span<const int64_t> offsets,
                                        absl::Span<const int64_t> steps);
// (multi-reduction KIND V ACC (list D...)): per step r, in row-major order
// over the reduced dimensions D, the lane of V each result lane combines;
// steps[r][l].
std::vector<std::vector<int64_t>> MultiReductionLanes(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> reduced);
// The order a multi-reduction combines its steps in: its (reduction-order ...)
// clause's, else sequential. With `halving` (a power of two of steps), the
// upper half of the steps is combined onto the lower half, step s with
// step s + half, until one is left, which is then combined into ACC.
ReductionOrder MultiReductionOrder(const Node& multi_reduction);
// The shape a multi-reduction of `shape` over `reduced` leaves.
std::vector<int64_t> ReducedShape(absl::Span<const int64_t> shape,
                                  absl::Span<const int64_t> reduced);

// The integers of a literal list, (list ...) or a clause of int*.
std::vector<int64_t> ListValues(const Node& list);

// The parts of a transfer-read or transfer-write: the operands before its
// clauses, and the clauses.
struct TransferParts {
  Node* value = nullptr;  // transfer-write: the vector written
  Node* tensor = nullptr;
  absl::Span<Node* const> indices;
  Node* pad = nullptr;  // transfer-read
  const Node* permutation = nullptr;
  const Node* in_bounds = nullptr;
  Node* mask = nullptr;  // the mask clause's operand
  const Node* nontemporal = nullptr;  // transfer-write
};
TransferParts PartsOf(const Node& transfer);

// The tensor dimension each dimension of a transfer's vector (of
// `vector_rank` dimensions) runs along, for a tensor of `tensor_rank`:
// its permutation map, else the minor identity (the trailing dimensions).
std::vector<int64_t> TransferDims(const TransferParts& parts,
                                  int64_t tensor_rank, int64_t vector_rank);

// A contract's combining kind: its (kind K) clause, else add.
std::optional<ReductionKind> ContractKind(const Node& contract);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_VECTOR_LANES_H_
