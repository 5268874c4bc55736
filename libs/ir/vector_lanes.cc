#include "libs/ir/vector_lanes.h"

#include <algorithm>

#include "libs/ir/op.h"

namespace tessel::ir {
namespace {

// Calls visit(position) for every position of `shape` in row-major order.
template <typename Visit>
void ForEachPosition(absl::Span<const int64_t> shape, Visit visit) {
  std::vector<int64_t> position(shape.size(), 0);
  for (int64_t n = LaneCount(shape); n > 0; --n) {
    visit(absl::MakeConstSpan(position));
    for (size_t j = shape.size(); j-- > 0;) {
      if (++position[j] < shape[j]) break;
      position[j] = 0;
    }
  }
}

}  // namespace

std::vector<int64_t> VectorShapeOf(const Type& type) {
  std::vector<int64_t> shape;
  for (const Dim& dim : type.dims()) shape.push_back(dim.value);
  return shape;
}

std::vector<int64_t> LaneStridesOf(absl::Span<const int64_t> shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t j = shape.size(); j-- > 1;) {
    strides[j - 1] = strides[j] * shape[j];
  }
  return strides;
}

int64_t LaneCount(absl::Span<const int64_t> shape) {
  int64_t lanes = 1;
  for (int64_t d : shape) lanes *= d;
  return lanes;
}

std::vector<int64_t> TransposeLanes(absl::Span<const int64_t> shape,
                                    absl::Span<const int64_t> permutation) {
  const std::vector<int64_t> strides = LaneStridesOf(shape);
  std::vector<int64_t> result_shape;
  for (int64_t p : permutation) result_shape.push_back(shape[p]);
  std::vector<int64_t> lanes;
  ForEachPosition(result_shape, [&](absl::Span<const int64_t> at) {
    int64_t lane = 0;
    for (size_t j = 0; j < at.size(); ++j) lane += at[j] * strides[permutation[j]];
    lanes.push_back(lane);
  });
  return lanes;
}

std::vector<int64_t> StridedSliceLanes(absl::Span<const int64_t> shape,
                                       absl::Span<const int64_t> offsets,
                                       absl::Span<const int64_t> sizes,
                                       absl::Span<const int64_t> steps) {
  const std::vector<int64_t> strides = LaneStridesOf(shape);
  std::vector<int64_t> result_shape(sizes.begin(), sizes.end());
  result_shape.insert(result_shape.end(), shape.begin() + sizes.size(),
                      shape.end());
  std::vector<int64_t> lanes;
  ForEachPosition(result_shape, [&](absl::Span<const int64_t> at) {
    int64_t lane = 0;
    for (size_t j = 0; j < at.size(); ++j) {
      const int64_t index =
          j < offsets.size() ? offsets[j] + at[j] * steps[j] : at[j];
      lane += index * strides[j];
    }
    lanes.push_back(lane);
  });
  return lanes;
}

std::vector<int64_t> InsertedSliceLanes(absl::Span<const int64_t> x_shape,
                                        absl::Span<const int64_t> v_shape,
                                        absl::Span<const int64_t> offsets,
                                        absl::Span<const int64_t> steps) {
  const std::vector<int64_t> strides = LaneStridesOf(v_shape);
  const size_t leading = v_shape.size() - x_shape.size();
  int64_t base = 0;
  for (size_t j = 0; j < leading; ++j) base += offsets[j] * strides[j];
  std::vector<int64_t> lanes(LaneCount(v_shape), -1);
  int64_t x_lane = 0;
  ForEachPosition(x_shape, [&](absl::Span<const int64_t> at) {
    int64_t lane = base;
    for (size_t j = 0; j < at.size(); ++j) {
      lane += (offsets[leading + j] + at[j] * steps[j]) * strides[leading + j];
    }
    lanes[lane] = x_lane++;
  });
  return lanes;
}

std::vector<int64_t> ReducedShape(absl::Span<const int64_t> shape,
                                  absl::Span<const int64_t> reduced) {
  std::vector<int64_t> kept;
  for (size_t j = 0; j < shape.size(); ++j) {
    if (std::find(reduced.begin(), reduced.end(), static_cast<int64_t>(j)) ==
        reduced.end()) {
      kept.push_back(shape[j]);
    }
  }
  return kept;
}

std::vector<std::vector<int64_t>> MultiReductionLanes(
    absl::Span<const int64_t> shape, absl::Span<const int64_t> reduced) {
  const std::vector<int64_t> strides = LaneStridesOf(shape);
  std::vector<int64_t> sorted(reduced.begin(), reduced.end());
  std::sort(sorted.begin(), sorted.end());
  std::vector<int64_t> kept_strides, reduced_shape, reduced_strides;
  for (size_t j = 0; j < shape.size(); ++j) {
    if (std::binary_search(sorted.begin(), sorted.end(),
                           static_cast<int64_t>(j))) {
      reduced_shape.push_back(shape[j]);
      reduced_strides.push_back(strides[j]);
    } else {
      kept_strides.push_back(strides[j]);
    }
  }
  const std::vector<int64_t> kept = ReducedShape(shape, reduced);
  std::vector<int64_t> kept_lanes;
  ForEachPosition(kept, [&](absl::Span<const int64_t> at) {
    int64_t lane = 0;
    for (size_t j = 0; j < at.size(); ++j) lane += at[j] * kept_strides[j];
    kept_lanes.push_back(lane);
  });
  std::vector<std::vector<int64_t>> steps;
  ForEachPosition(reduced_shape, [&](absl::Span<const int64_t> at) {
    int64_t offset = 0;
    for (size_t j = 0; j < at.size(); ++j) offset += at[j] * reduced_strides[j];
    std::vector<int64_t> step;
    for (int64_t lane : kept_lanes) step.push_back(lane + offset);
    steps.push_back(std::move(step));
  });
  return steps;
}

ReductionOrder MultiReductionOrder(const Node& multi_reduction) {
  if (multi_reduction.num_operands() < 4) return ReductionOrder::kSequential;
  return FindReductionOrder(multi_reduction.operand(3)->name())
      .value_or(ReductionOrder::kSequential);
}

std::vector<int64_t> ListValues(const Node& list) {
  std::vector<int64_t> values;
  for (const Node* value : list.operands()) values.push_back(value->int_value());
  return values;
}

TransferParts PartsOf(const Node& transfer) {
  TransferParts parts;
  size_t end = transfer.num_operands();
  // The clauses come last, in any order.
  while (end > 0) {
    Node* clause = transfer.operand(end - 1);
    if (clause->is(Op::kPermutationMap)) {
      parts.permutation = clause;
    } else if (clause->is(Op::kInBounds)) {
      parts.in_bounds = clause;
    } else if (clause->is(Op::kTransferMask)) {
      parts.mask = clause->operand(0);
    } else if (clause->is(Op::kNontemporal)) {
      parts.nontemporal = clause;
    } else {
      break;
    }
    --end;
  }
  size_t first = 0;
  if (transfer.is(Op::kTransferWrite)) parts.value = transfer.operand(first++);
  parts.tensor = transfer.operand(first++);
  if (transfer.is(Op::kTransferRead) && end > first) {
    parts.pad = transfer.operand(--end);
  }
  parts.indices = transfer.operands().subspan(first, end - first);
  return parts;
}

std::vector<int64_t> TransferDims(const TransferParts& parts,
                                  int64_t tensor_rank, int64_t vector_rank) {
  if (parts.permutation != nullptr) return ListValues(*parts.permutation);
  std::vector<int64_t> dims;
  for (int64_t j = 0; j < vector_rank; ++j) {
    dims.push_back(tensor_rank - vector_rank + j);
  }
  return dims;
}

std::optional<ReductionKind> ContractKind(const Node& contract) {
  if (contract.num_operands() < 7) return ReductionKind::kAdd;
  return FindReductionKind(contract.operand(6)->name());
}

}  // namespace tessel::ir
