// The vector level (formats/tir/README.md, "Vector level"): vector values of
// literal shapes inside loop-level procedures, after MLIR's vector dialect.
// A vector expression's type follows from the expression itself (a
// transfer-read or broadcast writes it, the other ops derive it from their
// operands), so vectors are typed bottom-up; whether an operand is a vector
// or a scalar is decided by VectorRank before it is typed.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "absl/strings/str_cat.h"
#include "libs/ir/keywords.h"
#include "libs/ir/op.h"
#include "libs/verify/common.h"
#include "libs/ir/vector_lanes.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

std::vector<int64_t> ShapeOf(const Type& type) {
  std::vector<int64_t> shape;
  for (const Dim& dim : type.dims()) shape.push_back(dim.value);
  return shape;
}

bool IsElementwise(Op op) { return IsArithmetic(op) || op == Op::kFma; }

absl::string_view ContractOperandName(size_t i) {
  return i == 0 ? "A" : i == 1 ? "B" : "ACC";
}

bool IsIndexLiteral(const Node& node) {
  return node.is(Op::kConst) && !node.is_float_literal();
}

}  // namespace

absl::Status ProcVerifier::CheckVectorMemory(const Node& decl,
                                             const Node& memory) const {
  if (!decl.declared_type().is_vector()) return absl::OkStatus();
  for (const Node* clause : memory.operands()) {
    if (clause->name() == "addressable" && clause->text() == "false") {
      return ErrorAt(
          decl.loc(),
          absl::StrCat("the vector '", decl.name(), "' is in ", memory.name(),
                       ", which is not addressable: vectors live "
                       "in addressable memory such as @DRAM"));
    }
  }
  return absl::OkStatus();
}

bool ProcVerifier::IsVectorVariable(const Node& location) const {
  if (!location.is(Op::kRef)) return false;
  const LoopName* bound = Find(location.def());
  return bound != nullptr && bound->is_data && bound->view.type.is_vector();
}

int ProcVerifier::VectorRank(const Node& expr) const {
  switch (expr.op()) {
    case Op::kRef:
      return IsVectorVariable(expr) ? Find(expr.def())->view.type.rank() : 0;
    case Op::kTransferRead:
    case Op::kBroadcast:
      return expr.declared_type().is_vector() ? expr.declared_type().rank() : 0;
    case Op::kContract:
      return VectorRank(*expr.operand(2));
    case Op::kInsert:
    case Op::kInsertStridedSlice:
      return VectorRank(*expr.operand(1));
    case Op::kTranspose:
    case Op::kExtractStridedSlice:
      return VectorRank(*expr.operand(0));
    case Op::kShapeCast:
      return expr.declared_type().is_vector() ? expr.declared_type().rank() : 0;
    case Op::kOuterProduct:
      return VectorRank(*expr.operand(1)) > 0 ? 2 : 1;
    case Op::kMultiReduction:
      return std::max<int>(0, VectorRank(*expr.operand(0)) -
                                  static_cast<int>(
                                      expr.operand(2)->num_operands()));
    case Op::kExtract:
      return std::max<int>(0, VectorRank(*expr.operand(0)) -
                                  static_cast<int>(expr.num_operands() - 1));
    case Op::kSelect:
      return std::max(VectorRank(*expr.operand(1)),
                      VectorRank(*expr.operand(2)));
    case Op::kCast:
      return VectorRank(*expr.operand(0));
    default:
      if (!IsElementwise(expr.op())) return 0;
      int rank = 0;
      for (const Node* operand : expr.operands()) {
        rank = std::max(rank, VectorRank(*operand));
      }
      return rank;
  }
}

absl::StatusOr<Type> ProcVerifier::InferVector(Node& expr) {
  absl::StatusOr<Type> type;
  switch (expr.op()) {
    case Op::kRef: {
      auto data = FindData(expr);
      if (!data.ok()) return data.status();
      if (!(*data)->view.type.is_vector()) {
        return ErrorAt(expr.loc(), absl::StrCat("expected a vector, found '",
                                                expr.name(), "' of type ",
                                                TypeText((*data)->view.type)));
      }
      if (auto status = CheckAddressable(expr, **data); !status.ok()) {
        return status;
      }
      return expr.type();
    }
    case Op::kTransferRead: {
      const Type& vector = expr.declared_type();
      if (!vector.is_vector()) {
        return ErrorAt(expr.item_loc(1),
                       absl::StrCat("transfer-read needs a vector type "
                                    "(vector ELEM D...), found '",
                                    TypeText(vector), "'"));
      }
      if (auto status = CheckTransfer(expr, vector, false); !status.ok()) {
        return status;
      }
      if (auto pad = InferData(*PartsOf(expr).pad, vector.elem()); !pad.ok()) {
        return pad.status();
      }
      type = vector;
      break;
    }
    case Op::kBroadcast:
      type = InferBroadcast(expr);
      break;
    case Op::kContract:
      type = InferContract(expr);
      break;
    case Op::kInsert:
      type = InferInsert(expr);
      break;
    case Op::kTranspose:
      type = InferTranspose(expr);
      break;
    case Op::kShapeCast:
      type = InferShapeCast(expr);
      break;
    case Op::kOuterProduct:
      type = InferOuterProduct(expr);
      break;
    case Op::kExtractStridedSlice:
      type = InferStridedSlice(expr);
      break;
    case Op::kInsertStridedSlice:
      type = InferInsertStridedSlice(expr);
      break;
    case Op::kMultiReduction:
      type = InferMultiReduction(expr);
      break;
    case Op::kExtract: {
      auto vector = InferVector(*expr.operand(0));
      if (!vector.ok()) return vector.status();
      auto rest = CheckPositions(expr, 1, *vector);
      if (!rest.ok()) return rest.status();
      if (rest->empty()) {
        return ErrorAt(expr.loc(),
                       absl::StrCat("'", Text(expr), "' is a scalar ",
                                    ElemTypeName(vector->elem()),
                                    ", where a vector is expected"));
      }
      type = Type::Vector(vector->elem(), *std::move(rest));
      break;
    }
    case Op::kCast: {
      auto operand = InferVector(*expr.operand(0));
      if (!operand.ok()) return operand.status();
      type = Type::Vector(expr.declared_type().elem(), ShapeOf(*operand));
      break;
    }
    case Op::kSelect: {
      type = InferElementwise(expr);
      if (!type.ok()) return type.status();
      if (auto status = CheckLaneMask(*expr.operand(0), *type); !status.ok()) {
        return status;
      }
      break;
    }
    case Op::kReduction:
      return ErrorAt(expr.loc(), absl::StrCat("'", Text(expr),
                                              "' is a scalar, where a vector "
                                              "is expected"));
    default:
      if (IsElementwise(expr.op())) {
        type = InferElementwise(expr);
        break;
      }
      if (IsComparison(expr.op())) {
        return ErrorAt(expr.loc(),
                       "a comparison of vectors is a lane mask: "
                       "only the condition of a select");
      }
      return ErrorAt(expr.loc(),
                     absl::StrCat("expected a vector, found '", Text(expr),
                                  "' (a scalar becomes a vector "
                                  "with broadcast)"));
  }
  if (type.ok()) expr.set_type(*type);
  return type;
}

absl::StatusOr<Type> ProcVerifier::InferElementwise(Node& expr) {
  // Every vector operand has one type (MLIR's elementwise ops do not
  // broadcast); select's condition, operand 0, is checked by the caller.
  size_t first = expr.is(Op::kSelect) ? 1 : 0;
  std::optional<Type> type;
  for (size_t i = first; i < expr.num_operands(); ++i) {
    auto operand = InferVector(*expr.operand(i));
    if (!operand.ok()) return operand.status();
    if (type && *operand != *type) {
      return ErrorAt(
          expr.operand(i)->loc(),
          absl::StrCat("the operands of '", Spelling(expr.op()),
                       "' must have one type: expected ", TypeText(*type),
                       ", found ", TypeText(*operand)));
    }
    type = *operand;
  }
  return *type;
}

absl::StatusOr<Type> ProcVerifier::InferBroadcast(Node& expr) {
  const Type& vector = expr.declared_type();
  if (!vector.is_vector()) {
    return ErrorAt(expr.item_loc(1), absl::StrCat("broadcast needs a vector "
                                                  "type (vector ELEM D...), "
                                                  "found '",
                                                  TypeText(vector), "'"));
  }
  Node& source = *expr.operand(0);
  if (VectorRank(source) == 0) {
    if (auto scalar = InferData(source, vector.elem()); !scalar.ok()) {
      return scalar.status();
    }
    return vector;
  }
  auto type = InferVector(source);
  if (!type.ok()) return type.status();
  // MLIR's rule: the source's shape is a suffix of the result's.
  std::vector<int64_t> shape = ShapeOf(vector);
  std::vector<int64_t> from = ShapeOf(*type);
  bool suffix = from.size() <= shape.size() &&
                std::equal(from.begin(), from.end(),
                           shape.end() - static_cast<int64_t>(from.size()));
  if (type->elem() != vector.elem() || !suffix) {
    return ErrorAt(source.loc(),
                   absl::StrCat("cannot broadcast ", TypeText(*type), " to ",
                                TypeText(vector),
                                ": the element types must match and the "
                                "source's shape must be a suffix of the "
                                "result's"));
  }
  return vector;
}

absl::StatusOr<std::vector<int64_t>> ProcVerifier::CheckPositions(
    Node& expr, size_t first, const Type& vector) {
  std::vector<int64_t> shape = ShapeOf(vector);
  size_t count = expr.num_operands() - first;
  if (count == 0 || count > shape.size()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("'", Spelling(expr.op()), "' on ",
                                TypeText(vector), " takes 1 to ", shape.size(),
                                " positions, found ", count));
  }
  for (size_t k = 0; k < count; ++k) {
    Node& position = *expr.operand(first + k);
    if (!IsIndexLiteral(position)) {
      return ErrorAt(position.loc(),
                     absl::StrCat("a position of ", Spelling(expr.op()),
                                  " must be an integer literal, found '",
                                  Text(position), "'"));
    }
    if (position.int_value() < 0 || position.int_value() >= shape[k]) {
      return ErrorAt(position.loc(),
                     absl::StrCat("position ", position.int_value(),
                                  " is outside dimension ", k, " of ",
                                  TypeText(vector), " (size ", shape[k], ")"));
    }
    position.set_type(Type::Control(ControlType::kIndex));
  }
  return std::vector<int64_t>(shape.begin() + count, shape.end());
}

absl::StatusOr<Type> ProcVerifier::InferInsert(Node& expr) {
  auto vector = InferVector(*expr.operand(1));
  if (!vector.ok()) return vector.status();
  auto rest = CheckPositions(expr, 2, *vector);
  if (!rest.ok()) return rest.status();
  Node& value = *expr.operand(0);
  if (rest->empty()) {
    if (auto scalar = InferData(value, vector->elem()); !scalar.ok()) {
      return scalar.status();
    }
    return *vector;
  }
  Type expected = Type::Vector(vector->elem(), *std::move(rest));
  auto type = InferVector(value);
  if (!type.ok()) return type.status();
  if (*type != expected) {
    return ErrorAt(value.loc(),
                   absl::StrCat("insert needs ", TypeText(expected),
                                " there, "
                                "found ",
                                TypeText(*type)));
  }
  return *vector;
}

absl::StatusOr<Type> ProcVerifier::InferContract(Node& expr) {
  std::vector<Type> types;
  for (size_t i = 0; i < 3; ++i) {
    auto type = InferVector(*expr.operand(i));
    if (!type.ok()) return type.status();
    if (!types.empty() && type->elem() != types[0].elem()) {
      return ErrorAt(expr.operand(i)->loc(),
                     absl::StrCat("the operands of contract have one element "
                                  "type: expected ",
                                  ElemTypeName(types[0].elem()), ", found ",
                                  ElemTypeName(type->elem())));
    }
    types.push_back(*std::move(type));
  }
  // extents[d]: the extent of iteration dimension d, and who fixed it.
  std::vector<int64_t> extents;
  std::vector<size_t> fixed_by;
  std::vector<bool> in_inputs;
  for (size_t i = 0; i < 3; ++i) {
    Node& list = *expr.operand(3 + i);
    absl::string_view name = ContractOperandName(i);
    if (!list.is(Op::kList)) {
      return ErrorAt(list.loc(),
                     absl::StrCat("expected (list D...): the iteration "
                                  "dimension of each dimension of ",
                                  name, ", found '", Text(list), "'"));
    }
    std::vector<int64_t> shape = ShapeOf(types[i]);
    if (list.num_operands() != shape.size()) {
      return ErrorAt(list.loc(),
                     absl::StrCat(name, " is ", TypeText(types[i]),
                                  ", but its list gives ", list.num_operands(),
                                  " iteration dimensions"));
    }
    std::vector<bool> seen;
    for (size_t k = 0; k < shape.size(); ++k) {
      const Node& entry = *list.operand(k);
      int64_t d = entry.int_value();
      if (d < 0 || d >= 64) {
        return ErrorAt(entry.loc(), absl::StrCat("iteration dimension ", d,
                                                 " is not in [0, 64)"));
      }
      size_t at = static_cast<size_t>(d);
      if (at >= extents.size()) {
        extents.resize(at + 1, -1);
        fixed_by.resize(at + 1, 0);
        in_inputs.resize(at + 1, false);
      }
      if (at >= seen.size()) seen.resize(at + 1, false);
      if (seen[at]) {
        return ErrorAt(entry.loc(),
                       absl::StrCat("iteration dimension ", d,
                                    " appears twice in the list of ", name));
      }
      seen[at] = true;
      if (i < 2) in_inputs[at] = true;
      if (extents[at] < 0) {
        extents[at] = shape[k];
        fixed_by[at] = i;
      } else if (extents[at] != shape[k]) {
        return ErrorAt(
            entry.loc(),
            absl::StrCat("iteration dimension ", d, " has extent ", extents[at],
                         " in ", ContractOperandName(fixed_by[at]), " but ",
                         shape[k], " in ", name));
      }
    }
  }
  if (auto status = CheckContractKind(expr); !status.ok()) return status;
  for (size_t d = 0; d < extents.size(); ++d) {
    if (!in_inputs[d]) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("iteration dimension ", d,
                                  " indexes neither A nor B (iteration "
                                  "dimensions are numbered from 0 without "
                                  "gaps)"));
    }
  }
  return types[2];
}

absl::Status ProcVerifier::CheckLaneMask(Node& cond, const Type& type) {
  if (cond.is(Op::kAnd) || cond.is(Op::kOr) || cond.is(Op::kNot)) {
    for (Node* operand : cond.operands()) {
      if (auto status = CheckLaneMask(*operand, type); !status.ok()) {
        return status;
      }
    }
    cond.set_type(Type::Control(ControlType::kBool));
    return absl::OkStatus();
  }
  if (cond.is(Op::kCreateMask)) return CheckCreateMask(cond, type);
  if (!IsComparison(cond.op())) {
    return ErrorAt(cond.loc(),
                   absl::StrCat("a lane mask is a create-mask, a "
                                "lane comparison of vectors, or and/or/not of "
                                "them, found '",
                                Text(cond), "'"));
  }
  auto a = InferVector(*cond.operand(0));
  if (!a.ok()) return a.status();
  auto b = InferVector(*cond.operand(1));
  if (!b.ok()) return b.status();
  if (*a != *b || a->dims() != type.dims()) {
    return ErrorAt(
        cond.loc(),
        absl::StrCat("a lane comparison for a select of ", TypeText(type),
                     " compares two vectors of its shape and one "
                     "type, found ",
                     TypeText(*a), " and ", TypeText(*b)));
  }
  // A mask is no TIR value: like a scalar condition, it is typed bool.
  cond.set_type(Type::Control(ControlType::kBool));
  return absl::OkStatus();
}

absl::StatusOr<ScalarType> ProcVerifier::InferVectorScalar(
    Node& expr, std::optional<ElemType> expected) {
  if (expr.is(Op::kReduction)) {
    const std::string& kind = expr.name();
    if (!FindReductionKind(kind)) {
      return ErrorAt(expr.name_loc(),
                     absl::StrCat("unknown reduction '", kind,
                                  "'; expected add, mul, max or min"));
    }
    auto vector = InferVector(*expr.operand(0));
    if (!vector.ok()) return vector.status();
    expr.set_type(Type::Elem(vector->elem()));
    return Conform(expr, ScalarType::Of(vector->elem()), expected);
  }
  if (expr.is(Op::kExtract)) {
    auto vector = InferVector(*expr.operand(0));
    if (!vector.ok()) return vector.status();
    auto rest = CheckPositions(expr, 1, *vector);
    if (!rest.ok()) return rest.status();
    if (!rest->empty()) {
      return ErrorAt(expr.loc(),
                     absl::StrCat("'", Text(expr), "' is a vector ",
                                  TypeText(Type::Vector(vector->elem(), *rest)),
                                  ", where a scalar is expected"));
    }
    expr.set_type(Type::Elem(vector->elem()));
    return Conform(expr, ScalarType::Of(vector->elem()), expected);
  }
  return ErrorAt(expr.loc(), absl::StrCat("'", Spelling(expr.op()),
                                          "' gives a vector, where a scalar "
                                          "is expected"));
}

absl::Status ProcVerifier::CheckVectorAssign(Node& stmt) {
  Node& name = *stmt.operand(0);
  auto data = FindData(name);
  if (!data.ok()) return data.status();
  const View& view = (*data)->view;
  if (stmt.is(Op::kReduce)) {
    return ErrorAt(stmt.loc(),
                   absl::StrCat("reduce does not apply to the vector '",
                                name.name(), "': write (assign ", name.name(),
                                " (+ ", name.name(), " X))"));
  }
  if (!view.writable) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.name(),
                                            "' is an in parameter and cannot "
                                            "be written"));
  }
  if (auto status = CheckAddressable(name, **data); !status.ok()) {
    return status;
  }
  Node& value = *stmt.operand(1);
  if (VectorRank(value) == 0 && !value.is(Op::kRef) &&
      !value.is(Op::kExtract)) {
    return ErrorAt(value.loc(), absl::StrCat("'", name.name(), "' is a vector ",
                                             TypeText(view.type),
                                             "; a scalar becomes one "
                                             "with (broadcast ",
                                             TypeText(view.type), " X)"));
  }
  auto type = InferVector(value);
  if (!type.ok()) return type.status();
  if (*type != view.type) {
    return ErrorAt(value.loc(),
                   absl::StrCat("'", name.name(), "' is ", TypeText(view.type),
                                ", but the value is ", TypeText(*type)));
  }
  return absl::OkStatus();
}

absl::Status ProcVerifier::CheckTransferWrite(Node& stmt) {
  auto vector = InferVector(*stmt.operand(0));
  if (!vector.ok()) return vector.status();
  return CheckTransfer(stmt, *vector, /*write=*/true);
}

absl::Status ProcVerifier::CheckTransfer(Node& transfer, const Type& vector,
                                         bool write) {
  absl::string_view op = Spelling(transfer.op());
  const TransferParts parts = PartsOf(transfer);
  Node& tensor = *parts.tensor;
  absl::Span<Node* const> indices = parts.indices;
  if (!write && parts.pad == nullptr) {
    return ErrorAt(transfer.loc(), "transfer-read needs a PAD value");
  }
  if (!tensor.is(Op::kRef)) {
    return ErrorAt(tensor.loc(),
                   absl::StrCat(op,
                                " needs the name of a tensor or window, "
                                "found '",
                                Text(tensor), "'"));
  }
  auto data = FindData(tensor);
  if (!data.ok()) return data.status();
  const View& view = (*data)->view;
  const std::string& name = tensor.name();
  if (view.type.is_vector() || view.type.rank() == 0) {
    return ErrorAt(tensor.loc(),
                   absl::StrCat("'", name, "' is ",
                                view.type.is_vector() ? "a vector" : "a scalar",
                                "; ", op, " needs a tensor or window"));
  }
  if (view.type.elem() != vector.elem()) {
    return ErrorAt(tensor.loc(), absl::StrCat("'", name, "' holds ",
                                              ElemTypeName(view.type.elem()),
                                              ", but the "
                                              "vector is ",
                                              TypeText(vector)));
  }
  int rank = view.type.rank();
  int lanes = vector.rank();
  // The clauses first: a misplaced one would count as an index.
  auto dims = CheckTransferClauses(transfer, vector, rank);
  if (!dims.ok()) return dims.status();
  if (rank < lanes) {
    return ErrorAt(transfer.loc(),
                   absl::StrCat("a transfer of ", TypeText(vector),
                                " needs a tensor of rank >= ", lanes, ", but '",
                                name, "' has rank ", rank));
  }
  if (static_cast<int>(indices.size()) != rank) {
    return ErrorAt(
        transfer.loc(),
        absl::StrCat("'", name, "' has rank ", rank, ", but ", indices.size(),
                     indices.size() == 1 ? " index is"
                                         : " indices "
                                           "are",
                     " given", write ? "" : " (before PAD)"));
  }
  if (write && !view.writable) {
    return ErrorAt(
        tensor.loc(),
        view.read_only_source == name
            ? absl::StrCat("'", name,
                           "' is an in parameter and cannot be "
                           "written")
            : absl::StrCat("'", name, "' views the in parameter '",
                           view.read_only_source, "' and cannot be written"));
  }
  if (auto status = CheckAddressable(tensor, **data); !status.ok()) {
    return status;
  }
  if (parts.permutation == nullptr) {
    // The minor identity: the leading indices select one element each.
    if (auto status = CheckIndices(indices.subspan(0, rank - lanes), view, name);
        !status.ok()) {
      return status;
    }
  }
  // The indices of dimensions no lane runs along select one element each
  // and must be in bounds; those of lane dimensions start lanes that may
  // leave the tensor (masked), unless declared in bounds, which is proved.
  for (int k = 0; k < rank; ++k) {
    Node& index = *indices[k];
    if (auto value = ControlInt(index); !value.ok()) return value.status();
    auto lane = std::find(dims->begin(), dims->end(), k);
    if (lane == dims->end()) {
      if (parts.permutation == nullptr) continue;  // checked above
      if (auto status = CheckSpanInside(index, 1, view, k, name);
          !status.ok()) {
        return status;
      }
      continue;
    }
    const size_t j = lane - dims->begin();
    if (parts.in_bounds != nullptr &&
        parts.in_bounds->operand(j)->int_value() != 0) {
      if (auto status =
              CheckSpanInside(index, vector.dims()[j].value, view, k, name);
          !status.ok()) {
        return status;
      }
    }
  }
  if (parts.mask != nullptr) {
    return CheckLaneMask(*parts.mask, vector);
  }
  return absl::OkStatus();
}

}  // namespace tessel::ir
