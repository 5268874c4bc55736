// The vector ops vectorize lowers to (formats/tir/README.md, "Vector
// level"): transpose, shape-cast, strided slices, outer products,
// multi-reductions, create-mask, and the clauses of transfers and
// contract, after MLIR's vector dialect. Their lane-level meaning is
// vector_lanes.h's; here, what makes them well typed.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/keywords.h"
#include "libs/ir/op.h"
#include "libs/ir/vector_lanes.h"
#include "libs/support/source.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"

namespace tessel::ir {

absl::StatusOr<std::vector<int64_t>> ProcVerifier::CheckIntList(
    Node& list, absl::string_view what, int64_t count, int64_t limit) {
  if (!list.is(Op::kList)) {
    return ErrorAt(list.loc(), absl::StrCat("expected (list ...): ", what,
                                            ", found '", Text(list), "'"));
  }
  std::vector<int64_t> values = ListValues(list);
  if (count >= 0 && static_cast<int64_t>(values.size()) != count) {
    return ErrorAt(list.loc(), absl::StrCat(what, ": expected ", count,
                                            " integers, found ",
                                            values.size()));
  }
  for (size_t k = 0; k < values.size(); ++k) {
    if (values[k] < 0 || (limit >= 0 && values[k] >= limit)) {
      return ErrorAt(list.operand(k)->loc(),
                     absl::StrCat(what, ": ", values[k], " is not in [0, ",
                                  limit, ")"));
    }
  }
  return values;
}

namespace {

// Is `values` a permutation of a subset of [0, limit) (each at most once)?
bool Distinct(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  return std::adjacent_find(values.begin(), values.end()) == values.end();
}

}  // namespace

absl::StatusOr<Type> ProcVerifier::InferTranspose(Node& expr) {
  auto vector = InferVector(*expr.operand(0));
  if (!vector.ok()) return vector.status();
  const std::vector<int64_t> shape = VectorShapeOf(*vector);
  auto permutation =
      CheckIntList(*expr.operand(1), "the permutation of a transpose",
                   static_cast<int64_t>(shape.size()),
                   static_cast<int64_t>(shape.size()));
  if (!permutation.ok()) return permutation.status();
  if (!Distinct(*permutation)) {
    return ErrorAt(expr.operand(1)->loc(),
                   "the list of a transpose must name each dimension once");
  }
  std::vector<int64_t> result;
  for (int64_t p : *permutation) result.push_back(shape[p]);
  return Type::Vector(vector->elem(), result);
}

absl::StatusOr<Type> ProcVerifier::InferShapeCast(Node& expr) {
  const Type& target = expr.declared_type();
  if (!target.is_vector()) {
    return ErrorAt(expr.item_loc(1),
                   absl::StrCat("shape-cast needs a vector type (vector ELEM "
                                "D...), found '",
                                TypeText(target), "'"));
  }
  auto vector = InferVector(*expr.operand(0));
  if (!vector.ok()) return vector.status();
  if (vector->elem() != target.elem() ||
      LaneCount(VectorShapeOf(*vector)) != LaneCount(VectorShapeOf(target))) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("shape-cast keeps the element type and the "
                                "number of lanes: cannot cast ",
                                TypeText(*vector), " to ", TypeText(target)));
  }
  return target;
}

absl::StatusOr<Type> ProcVerifier::InferOuterProduct(Node& expr) {
  if (expr.num_operands() > 3) {
    return ErrorAt(expr.loc(), "outer-product takes A, B and an optional ACC");
  }
  auto a = InferVector(*expr.operand(0));
  if (!a.ok()) return a.status();
  if (a->rank() != 1) {
    return ErrorAt(expr.operand(0)->loc(),
                   absl::StrCat("the A of an outer-product is a vector of one "
                                "dimension, found ",
                                TypeText(*a)));
  }
  std::vector<int64_t> shape = VectorShapeOf(*a);
  Node& b = *expr.operand(1);
  if (VectorRank(b) == 0) {
    // MLIR's AXPY form: B a scalar.
    if (auto scalar = InferData(b, a->elem()); !scalar.ok()) {
      return scalar.status();
    }
  } else {
    auto type = InferVector(b);
    if (!type.ok()) return type.status();
    if (type->rank() != 1 || type->elem() != a->elem()) {
      return ErrorAt(b.loc(),
                     absl::StrCat("the B of an outer-product of ", TypeText(*a),
                                  " is a vector of one dimension of ",
                                  ElemTypeName(a->elem()), " or a scalar, found ",
                                  TypeText(*type)));
    }
    shape.push_back(type->dims()[0].value);
  }
  Type result = Type::Vector(a->elem(), shape);
  if (expr.num_operands() == 3) {
    auto acc = InferVector(*expr.operand(2));
    if (!acc.ok()) return acc.status();
    if (*acc != result) {
      return ErrorAt(expr.operand(2)->loc(),
                     absl::StrCat("the ACC of this outer-product must be ",
                                  TypeText(result), ", found ",
                                  TypeText(*acc)));
    }
  }
  return result;
}

absl::StatusOr<Type> ProcVerifier::InferStridedSlice(Node& expr) {
  auto vector = InferVector(*expr.operand(0));
  if (!vector.ok()) return vector.status();
  const std::vector<int64_t> shape = VectorShapeOf(*vector);
  const int64_t rank = static_cast<int64_t>(shape.size());
  auto offsets = CheckIntList(*expr.operand(1), "the offsets of a slice", -1,
                              -1);
  if (!offsets.ok()) return offsets.status();
  const int64_t k = static_cast<int64_t>(offsets->size());
  if (k < 1 || k > rank) {
    return ErrorAt(expr.operand(1)->loc(),
                   absl::StrCat("a slice of ", TypeText(*vector), " has 1 to ",
                                rank, " offsets, found ", k));
  }
  auto sizes = CheckIntList(*expr.operand(2), "the sizes of a slice", k, -1);
  if (!sizes.ok()) return sizes.status();
  auto steps = CheckIntList(*expr.operand(3), "the steps of a slice", k, -1);
  if (!steps.ok()) return steps.status();
  std::vector<int64_t> result;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t size = (*sizes)[j], step = (*steps)[j],
                  offset = (*offsets)[j];
    if (size < 1 || step < 1 || offset + (size - 1) * step >= shape[j]) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("slice ", size, " lanes from ", offset,
                                  " by ", step, " leaves dimension ", j, " of ",
                                  TypeText(*vector), " (size ", shape[j],
                                  "); sizes and steps are >= 1"));
    }
    result.push_back(size);
  }
  result.insert(result.end(), shape.begin() + k, shape.end());
  return Type::Vector(vector->elem(), result);
}

absl::StatusOr<Type> ProcVerifier::InferInsertStridedSlice(Node& expr) {
  auto x = InferVector(*expr.operand(0));
  if (!x.ok()) return x.status();
  auto v = InferVector(*expr.operand(1));
  if (!v.ok()) return v.status();
  const std::vector<int64_t> x_shape = VectorShapeOf(*x);
  const std::vector<int64_t> v_shape = VectorShapeOf(*v);
  if (x->elem() != v->elem() || x_shape.size() > v_shape.size()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("insert-strided-slice puts a vector of one "
                                "element type and no more dimensions into "
                                "another: cannot insert ",
                                TypeText(*x), " into ", TypeText(*v)));
  }
  auto offsets = CheckIntList(*expr.operand(2), "the offsets of a slice",
                              static_cast<int64_t>(v_shape.size()), -1);
  if (!offsets.ok()) return offsets.status();
  auto steps = CheckIntList(*expr.operand(3), "the steps of a slice",
                            static_cast<int64_t>(x_shape.size()), -1);
  if (!steps.ok()) return steps.status();
  const size_t leading = v_shape.size() - x_shape.size();
  for (size_t j = 0; j < v_shape.size(); ++j) {
    const int64_t size = j < leading ? 1 : x_shape[j - leading];
    const int64_t step = j < leading ? 1 : (*steps)[j - leading];
    if (step < 1 || (*offsets)[j] + (size - 1) * step >= v_shape[j]) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("the slice leaves dimension ", j, " of ",
                                  TypeText(*v), " (size ", v_shape[j],
                                  "); steps are >= 1"));
    }
  }
  return *v;
}

absl::StatusOr<Type> ProcVerifier::InferMultiReduction(Node& expr) {
  if (!FindReductionKind(expr.name())) {
    return ErrorAt(expr.name_loc(),
                   absl::StrCat("unknown reduction '", expr.name(),
                                "'; expected add, mul, max or min"));
  }
  auto vector = InferVector(*expr.operand(0));
  if (!vector.ok()) return vector.status();
  const std::vector<int64_t> shape = VectorShapeOf(*vector);
  auto reduced =
      CheckIntList(*expr.operand(2), "the dimensions a multi-reduction reduces",
                   -1, static_cast<int64_t>(shape.size()));
  if (!reduced.ok()) return reduced.status();
  if (reduced->empty() || reduced->size() >= shape.size() ||
      !Distinct(*reduced)) {
    return ErrorAt(expr.operand(2)->loc(),
                   absl::StrCat("a multi-reduction of ", TypeText(*vector),
                                " reduces distinct dimensions and keeps one at "
                                "least (all of them: reduction)"));
  }
  if (absl::Status status = CheckReductionOrder(expr, shape, *reduced);
      !status.ok()) {
    return status;
  }
  Type result = Type::Vector(vector->elem(), ReducedShape(shape, *reduced));
  auto acc = InferVector(*expr.operand(1));
  if (!acc.ok()) return acc.status();
  if (*acc != result) {
    return ErrorAt(expr.operand(1)->loc(),
                   absl::StrCat("the ACC of this multi-reduction must be ",
                                TypeText(result), ", found ", TypeText(*acc)));
  }
  return result;
}

absl::Status ProcVerifier::CheckReductionOrder(
    Node& expr, absl::Span<const int64_t> shape,
    absl::Span<const int64_t> reduced) {
  if (expr.num_operands() == 3) return absl::OkStatus();
  Node& order = *expr.operand(3);
  if (expr.num_operands() > 4 || !order.is(Op::kReductionOrderClause)) {
    return ErrorAt(order.loc(),
                   absl::StrCat("after its list, a multi-reduction takes only "
                                "(reduction-order sequential|halving), found '",
                                Text(order), "'"));
  }
  std::optional<ReductionOrder> known = FindReductionOrder(order.name());
  if (!known) {
    return ErrorAt(order.loc(), absl::StrCat("unknown order '", order.name(),
                                             "'; expected sequential or "
                                             "halving"));
  }
  int64_t steps = 1;
  for (int64_t d : reduced) steps *= shape[d];
  if (*known == ReductionOrder::kHalving && (steps & (steps - 1)) != 0) {
    return ErrorAt(
        order.loc(),
        absl::StrCat("(reduction-order halving) combines a power of two of "
                     "positions; this multi-reduction combines ",
                     steps));
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckCreateMask(Node& mask, const Type& type) {
  Node& shape = *mask.operand(0);
  std::vector<int64_t> dims =
      shape.is(Op::kShape) ? ListValues(shape) : std::vector<int64_t>{};
  if (dims != VectorShapeOf(type)) {
    return ErrorAt(shape.loc(),
                   absl::StrCat("a mask for ", TypeText(type), " is (shape ",
                                absl::StrJoin(VectorShapeOf(type), " "),
                                "), found '", Text(shape), "'"));
  }
  if (mask.num_operands() != dims.size() + 1) {
    return ErrorAt(mask.loc(), absl::StrCat("create-mask of (shape ",
                                            absl::StrJoin(dims, " "),
                                            ") takes ", dims.size(),
                                            " bounds, found ",
                                            mask.num_operands() - 1));
  }
  for (size_t j = 1; j < mask.num_operands(); ++j) {
    if (auto bound = ControlInt(*mask.operand(j)); !bound.ok()) {
      return bound.status();
    }
  }
  mask.set_type(Type::Control(ControlType::kBool));
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckContractKind(Node& expr) {
  if (expr.num_operands() == 6) return absl::OkStatus();
  Node& kind = *expr.operand(6);
  if (expr.num_operands() > 7 || !kind.is(Op::kCombiningKind)) {
    return ErrorAt(kind.loc(), absl::StrCat("after its lists, a contract takes "
                                            "only (kind add|mul|max|min), "
                                            "found '",
                                            Text(kind), "'"));
  }
  if (!FindReductionKind(kind.name())) {
    return ErrorAt(kind.loc(), absl::StrCat("unknown kind '", kind.name(),
                                            "'; expected add, mul, max or "
                                            "min"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<int64_t>> ProcVerifier::CheckTransferClauses(
    Node& transfer, const Type& vector, int rank) {
  const TransferParts parts = PartsOf(transfer);
  const int64_t lanes = vector.rank();
  // The clauses come last, each at most once.
  std::vector<Op> seen;
  bool in_clauses = false;
  for (const Node* operand : transfer.operands()) {
    const bool clause =
        operand->is(Op::kPermutationMap) || operand->is(Op::kInBounds) ||
        operand->is(Op::kTransferMask) || operand->is(Op::kNontemporal);
    if (!clause && in_clauses) {
      return ErrorAt(operand->loc(),
                     absl::StrCat("'", Text(*operand), "' follows a clause of ",
                                  Spelling(transfer.op()),
                                  ": its clauses come after its operands"));
    }
    if (!clause) continue;
    in_clauses = true;
    if (std::find(seen.begin(), seen.end(), operand->op()) != seen.end()) {
      return ErrorAt(operand->loc(),
                     absl::StrCat("a transfer takes at most one (",
                                  Spelling(operand->op()), " ...)"));
    }
    seen.push_back(operand->op());
  }
  // A read's lines are wanted in the caches: streaming loads only differ
  // on write-combining memory, which no tensor is.
  if (parts.nontemporal != nullptr && !transfer.is(Op::kTransferWrite)) {
    return ErrorAt(parts.nontemporal->loc(),
                   "only a transfer-write takes (nontemporal)");
  }
  if (parts.permutation != nullptr) {
    std::vector<int64_t> dims = ListValues(*parts.permutation);
    bool in_range = std::all_of(dims.begin(), dims.end(), [&](int64_t d) {
      return d >= 0 && d < rank;
    });
    if (static_cast<int64_t>(dims.size()) != lanes || !in_range ||
        !Distinct(dims)) {
      return ErrorAt(parts.permutation->loc(),
                     absl::StrCat("a permutation-map names, for each of the ",
                                  lanes, " dimensions of ", TypeText(vector),
                                  ", a distinct dimension of the tensor "
                                  "(of rank ",
                                  rank, ")"));
    }
  }
  if (parts.in_bounds != nullptr) {
    std::vector<int64_t> flags = ListValues(*parts.in_bounds);
    bool flags_ok = std::all_of(flags.begin(), flags.end(),
                                [](int64_t f) { return f == 0 || f == 1; });
    if (static_cast<int64_t>(flags.size()) != lanes || !flags_ok) {
      return ErrorAt(parts.in_bounds->loc(),
                     absl::StrCat("in-bounds gives 0 or 1 for each of the ",
                                  lanes, " dimensions of ", TypeText(vector)));
    }
  }
  return TransferDims(parts, rank, lanes);
}

}  // namespace tessel::ir
