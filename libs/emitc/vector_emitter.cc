#include "libs/emitc/vector_emitter.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "libs/ir/keywords.h"
#include "libs/ir/op.h"
#include "libs/ir/vector_lanes.h"

namespace tessel::emitc {
namespace {

// The contraction steps (lanes of ACC times points of the reduction
// dimensions) emit-c writes out.
constexpr int64_t kMaxContractLaneSteps = 1 << 16;

// The literal positions operands first... of an extract or insert.
std::vector<int64_t> Positions(const ir::Node& e, size_t first) {
  std::vector<int64_t> positions;
  for (size_t i = first; i < e.num_operands(); ++i) {
    positions.push_back(e.operand(i)->int_value());
  }
  return positions;
}

// The first lane and the number of lanes of the part of a vector of `shape`
// at the leading `positions`.
std::pair<int64_t, int64_t> Part(const VectorShape& shape,
                                 const std::vector<int64_t>& positions) {
  const std::vector<int64_t> strides = LaneStrides(shape.dims);
  int64_t first = 0;
  for (size_t k = 0; k < positions.size(); ++k) {
    first += positions[k] * strides[k];
  }
  return {first, strides[positions.size() - 1]};
}

// The signed lanes as wide as `elem`'s, `lanes` of them: a mask.
VectorCType MaskType(ElemType elem, int lanes) {
  return SignedType(ElemTypeBytes(elem) * 8, lanes);
}

// `value` of the C vector type `type` (which its uses then need).
CExpr Typed(CExpr value, const VectorCType& type) {
  value.uses.needs.vector_types.insert(type);
  return value;
}

}  // namespace

CExpr AddressOf(const CExpr& v) { return Unary("&", v); }

std::vector<VectorEmitter::Line> VectorEmitter::TakeLines() {
  return std::exchange(lines_, {});
}

void VectorEmitter::AddLine(std::string text, Uses uses) {
  lines_.push_back(Line{0, std::move(text), std::move(uses)});
}

CExpr VectorEmitter::Emit(const VectorCType& type, const CExpr& value,
                          const CExpr* dest) {
  Uses uses = value.uses;
  uses.needs.vector_types.insert(type);
  if (dest != nullptr) {
    uses.Merge(dest->uses);
    AddLine(absl::StrCat(dest->text, " = ", value.text, ";"), uses);
    return *dest;
  }
  std::string name = scope_.Fresh("v");
  AddLine(absl::StrCat(VectorTypeName(type), " ", name, " = ", value.text, ";"),
          uses);
  return Primary(name);
}

CExpr VectorEmitter::EmitCall(const VectorCType& type,
                              const VectorHelper& helper,
                              std::vector<CExpr> arguments, const CExpr* dest) {
  CExpr target = dest != nullptr ? *dest : Primary(scope_.Fresh("v"));
  if (dest == nullptr) {
    Uses declaration;
    declaration.needs.vector_types.insert(type);
    AddLine(absl::StrCat(VectorTypeName(type), " ", target.text, ";"),
            declaration);
  }
  arguments.insert(arguments.begin(), AddressOf(target));
  CExpr call = CallVectorHelper(helper, arguments);
  AddLine(call.text + ";", call.uses);
  return dest != nullptr ? *dest : target;
}

CExpr VectorEmitter::Result(const VectorCType& type, const CExpr& value,
                            const CExpr* dest) {
  if (dest == nullptr) return value;
  return Emit(type, value, dest);
}

absl::StatusOr<Binding*> VectorEmitter::Variable(const ir::Node& name) const {
  Binding* binding = name.is(ir::Op::kRef) && name.def() != nullptr
                         ? scope_.Lookup(*name.def())
                         : nullptr;
  if (binding == nullptr || binding->kind != BindingKind::kVector) {
    return Unexpected(name, "the name of a vector");
  }
  return binding;
}

absl::StatusOr<CExpr> VectorEmitter::Vector(const ir::Node& e) {
  return Compute(e, nullptr);
}

absl::StatusOr<CExpr> VectorEmitter::Compute(const ir::Node& e,
                                             const CExpr* dest) {
  if (!e.type().is_vector()) return Unexpected(e, "a vector");
  auto shape = ShapeOf(e);
  if (!shape.ok()) return shape.status();
  const VectorCType type = DataType(*shape);
  switch (e.op()) {
    case ir::Op::kRef: {
      auto binding = Variable(e);
      if (!binding.ok()) return binding.status();
      CExpr name = Primary((*binding)->c_name);
      name.uses.reads.push_back(*binding);
      if (!(*binding)->by_pointer) return Result(type, name, dest);
      return EmitCall(type, Load(*shape), {name}, dest);
    }
    case ir::Op::kTransferRead: {
      const ir::TransferParts parts = ir::PartsOf(e);
      auto view = expr_.WindowOf(*parts.tensor);
      if (!view.ok()) return view.status();
      auto arguments = TransferArguments(*view, parts, *shape);
      if (!arguments.ok()) return arguments.status();
      auto pad = expr_.Data(*parts.pad);
      if (!pad.ok()) return pad.status();
      if (parts.mask == nullptr) {
        arguments->push_back(*std::move(pad));
        return EmitCall(type, TransferRead(*shape), *std::move(arguments),
                        dest);
      }
      // Masked lanes take PAD: the lanes inside are read (the helper stays
      // inside the tensor), then PAD is selected where the mask is clear.
      arguments->push_back(*pad);
      CExpr lanes = EmitCall(type, TransferRead(*shape), *std::move(arguments),
                             nullptr);
      auto mask = Mask(*parts.mask, MaskType(shape->elem, type.lanes));
      if (!mask.ok()) return mask.status();
      CExpr pads = EmitCall(type, emitc::Broadcast(type), {*pad}, nullptr);
      return Emit(type, SelectLanes(*mask, lanes, pads, type), dest);
    }
    case ir::Op::kTranspose: {
      auto from = ShapeOf(*e.operand(0));
      if (!from.ok()) return from.status();
      const std::vector<int64_t> permutation = ir::ListValues(*e.operand(1));
      if (TransposesByRows(*from) && permutation[0] == 1) {
        auto v = Vector(*e.operand(0));
        if (!v.ok()) return v.status();
        return EmitCall(type, emitc::Transpose(*from), {AddressOf(*v)}, dest);
      }
      if (TransposesByRegisters(*from) && permutation[0] == 1) {
        auto v = Vector(*e.operand(0));
        if (!v.ok()) return v.status();
        return EmitCall(type, TransposeByRegisters(*from), {AddressOf(*v)},
                        dest);
      }
      return ShuffleOf(
          *e.operand(0),
          ir::TransposeLanes(from->dims, permutation), *shape, dest);
    }
    case ir::Op::kShapeCast: {
      std::vector<int64_t> lanes;
      for (int64_t l = 0; l < shape->lanes(); ++l) lanes.push_back(l);
      return ShuffleOf(*e.operand(0), lanes, *shape, dest);
    }
    case ir::Op::kExtractStridedSlice: {
      auto from = ShapeOf(*e.operand(0));
      if (!from.ok()) return from.status();
      return ShuffleOf(*e.operand(0),
                       ir::StridedSliceLanes(from->dims,
                                             ir::ListValues(*e.operand(1)),
                                             ir::ListValues(*e.operand(2)),
                                             ir::ListValues(*e.operand(3))),
                       *shape, dest);
    }
    case ir::Op::kInsertStridedSlice:
      return InsertStridedSlice(e, *shape, dest);
    case ir::Op::kOuterProduct:
      return OuterProduct(e, *shape, dest);
    case ir::Op::kMultiReduction:
      return MultiReduction(e, *shape, dest);
    case ir::Op::kBroadcast:
      return Broadcast(e, *shape, dest);
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
    case ir::Op::kMax:
    case ir::Op::kMin:
    case ir::Op::kNeg:
    case ir::Op::kSelect:
      return Elementwise(e, *shape, dest);
    case ir::Op::kCast:
      return Cast(e, *shape, dest);
    case ir::Op::kFma:
      return Fma(e, *shape, dest);
    case ir::Op::kContract:
      return Contract(e, *shape, dest);
    case ir::Op::kExtract: {
      const ir::Node& source = *e.operand(0);
      auto from = ShapeOf(source);
      if (!from.ok()) return from.status();
      auto v = Vector(source);
      if (!v.ok()) return v.status();
      auto [first, count] = Part(*from, Positions(e, 1));
      std::vector<int64_t> lanes(type.lanes, 0);
      for (int64_t l = 0; l < count; ++l) lanes[l] = first + l;
      CExpr part = Primary(Shuffle(v->text, lanes));
      part.uses = v->uses;
      return Emit(type, part, dest);
    }
    case ir::Op::kInsert:
      return Insert(e, *shape, dest);
    default:
      return Unexpected(e, "a vector");
  }
}

absl::StatusOr<CExpr> VectorEmitter::Broadcast(const ir::Node& e,
                                               const VectorShape& shape,
                                               const CExpr* dest) {
  const VectorCType type = DataType(shape);
  const ir::Node& source = *e.operand(0);
  if (!source.type().is_vector()) {
    auto value = expr_.Data(source);
    if (!value.ok()) return value.status();
    return EmitCall(type, emitc::Broadcast(type), {*value}, dest);
  }
  // Lane l of the result is lane l mod |source| of the source.
  auto from = ShapeOf(source);
  if (!from.ok()) return from.status();
  auto v = Vector(source);
  if (!v.ok()) return v.status();
  std::vector<int64_t> lanes(type.lanes, 0);
  for (int64_t l = 0; l < shape.lanes(); ++l) lanes[l] = l % from->lanes();
  CExpr repeated = Primary(Shuffle(v->text, lanes));
  repeated.uses = v->uses;
  return Emit(type, repeated, dest);
}

absl::StatusOr<CExpr> VectorEmitter::Elementwise(const ir::Node& e,
                                                 const VectorShape& shape,
                                                 const CExpr* dest) {
  const VectorCType type = DataType(shape);
  const bool select = e.is(ir::Op::kSelect);
  std::optional<CExpr> mask;
  if (select) {
    auto lanes = Mask(*e.operand(0), MaskType(shape.elem, type.lanes));
    if (!lanes.ok()) return lanes.status();
    mask = *std::move(lanes);
  }
  std::vector<CExpr> operands;
  for (size_t i = select ? 1 : 0; i < e.num_operands(); ++i) {
    auto operand = Vector(*e.operand(i));
    if (!operand.ok()) return operand.status();
    operands.push_back(*std::move(operand));
  }
  const bool is_float = IsFloat(shape.elem);
  switch (e.op()) {
    case ir::Op::kSelect:
      return Emit(type, SelectLanes(*mask, operands[0], operands[1], type),
                  dest);
    case ir::Op::kNeg: {
      if (is_float) return Emit(type, Unary("-", operands[0]), dest);
      const VectorCType wrapping = UnsignedType(type.bits, type.lanes);
      return Emit(
          type,
          Typed(emitc::Cast(VectorTypeName(type),
                            Unary("-", emitc::Cast(VectorTypeName(wrapping),
                                                   operands[0]))),
                wrapping),
          dest);
    }
    case ir::Op::kMax:
    case ir::Op::kMin: {
      // TIR's (max a b) is `a < b ? b : a`, (min a b) `b < a ? b : a`, which
      // decide NaNs and signed zeros.
      const VectorCType mask_type = MaskType(shape.elem, type.lanes);
      const bool is_max = e.is(ir::Op::kMax);
      CExpr less = Typed(emitc::Cast(VectorTypeName(mask_type),
                                     Binary("<", operands[is_max ? 0 : 1],
                                            operands[is_max ? 1 : 0])),
                         mask_type);
      CExpr chosen = Emit(mask_type, less, nullptr);
      return Emit(type, SelectLanes(chosen, operands[1], operands[0], type),
                  dest);
    }
    case ir::Op::kDiv:
      if (!is_float) {
        return EmitCall(type, Divide(shape),
                        {AddressOf(operands[0]), AddressOf(operands[1])}, dest);
      }
      break;
    default:
      break;
  }
  return Emit(type,
              VectorArithmetic(e.op(), operands[0], operands[1], shape.elem,
                               type.lanes),
              dest);
}

CExpr VectorEmitter::SelectLanes(const CExpr& mask, const CExpr& if_set,
                                 const CExpr& otherwise,
                                 const VectorCType& type) {
  // Bitwise: C's ?: takes no vector condition in C (only in C++).
  const VectorCType mask_type = SignedType(type.bits, type.lanes);
  const std::string as_mask = VectorTypeName(mask_type);
  auto lanes = [&](const CExpr& v) {
    return mask_type == type ? v : emitc::Cast(as_mask, v);
  };
  CExpr chosen = Binary("|", Binary("&", mask, lanes(if_set)),
                        Binary("&", Unary("~", mask), lanes(otherwise)));
  CExpr value =
      mask_type == type ? chosen : emitc::Cast(VectorTypeName(type), chosen);
  return Typed(Typed(value, mask_type), type);
}

absl::StatusOr<CExpr> VectorEmitter::Mask(const ir::Node& e,
                                          const VectorCType& type) {
  if (e.is(ir::Op::kAnd) || e.is(ir::Op::kOr)) {
    auto a = Mask(*e.operand(0), type);
    if (!a.ok()) return a.status();
    auto b = Mask(*e.operand(1), type);
    if (!b.ok()) return b.status();
    return Emit(type, Binary(e.is(ir::Op::kAnd) ? "&" : "|", *a, *b), nullptr);
  }
  if (e.is(ir::Op::kNot)) {
    auto a = Mask(*e.operand(0), type);
    if (!a.ok()) return a.status();
    return Emit(type, Unary("~", *a), nullptr);
  }
  if (e.is(ir::Op::kCreateMask)) return CreateMask(e, type);
  if (!ir::IsComparison(e.op()) || !e.operand(0)->type().is_vector()) {
    return Unexpected(e, "a lane mask (a comparison of vectors)");
  }
  auto a = Vector(*e.operand(0));
  if (!a.ok()) return a.status();
  auto b = Vector(*e.operand(1));
  if (!b.ok()) return b.status();
  // C's comparison of vectors gives signed lanes as wide as the compared
  // ones, -1 where it holds; converting lanes keeps -1 and 0.
  const VectorCType compared =
      MaskType(e.operand(0)->type().elem(), type.lanes);
  CExpr lanes = Typed(emitc::Cast(VectorTypeName(compared),
                                  Binary(ir::Spelling(e.op()), *a, *b)),
                      compared);
  if (compared != type) {
    CExpr converted = Primary(ConvertVector(lanes.text, type));
    converted.uses = lanes.uses;
    lanes = converted;
  }
  return Emit(type, lanes, nullptr);
}

absl::StatusOr<CExpr> VectorEmitter::Cast(const ir::Node& e,
                                          const VectorShape& shape,
                                          const CExpr* dest) {
  const VectorCType type = DataType(shape);
  const ir::Node& operand = *e.operand(0);
  auto from = ShapeOf(operand);
  if (!from.ok()) return from.status();
  auto v = Vector(operand);
  if (!v.ok()) return v.status();
  if (from->elem == shape.elem) return Result(type, *v, dest);
  // C leaves a float to integer conversion undefined when the integer type
  // cannot hold the value; run-sim reports it, and so does the helper.
  if (IsFloat(from->elem) && !IsFloat(shape.elem)) {
    return EmitCall(type, CheckedCast(shape.elem, *from), {AddressOf(*v)},
                    dest);
  }
  if (from->elem == ElemType::kF32 && shape.elem == ElemType::kF64) {
    return EmitCall(type, WideningCast(shape.elem, *from), {AddressOf(*v)},
                    dest);
  }
  CExpr converted = Typed(Primary(ConvertVector(v->text, type)), type);
  converted.uses.Merge(v->uses);
  return Emit(type, converted, dest);
}

absl::StatusOr<CExpr> VectorEmitter::Fma(const ir::Node& e,
                                         const VectorShape& shape,
                                         const CExpr* dest) {
  std::vector<CExpr> operands;
  for (const ir::Node* operand : e.operands()) {
    auto value = Vector(*operand);
    if (!value.ok()) return value.status();
    operands.push_back(*std::move(value));
  }
  return FmaOf(operands, shape, dest);
}

CExpr VectorEmitter::FmaOf(const std::vector<CExpr>& operands,
                           const VectorShape& shape, const CExpr* dest) {
  const VectorCType type = DataType(shape);
  switch (shape.elem) {
    case ElemType::kF32:
    case ElemType::kF64:
      return EmitCall(type, emitc::Fma(type),
                      {AddressOf(operands[0]), AddressOf(operands[1]),
                       AddressOf(operands[2])},
                      dest);
    case ElemType::kF16: {
      // run-sim's f16 fma: fma in double, rounded to f16. The product of two
      // f16 values is exact in double, so a double product and sum round
      // once, as fma does (and so would a fused one).
      const VectorCType wide = DataType(ElemType::kF64, type.lanes);
      CExpr product =
          Binary("*", Primary(ConvertVector(operands[0].text, wide)),
                 Primary(ConvertVector(operands[1].text, wide)));
      CExpr sum =
          Binary("+", product, Primary(ConvertVector(operands[2].text, wide)));
      CExpr rounded = Typed(Primary(ConvertVector(sum.text, type)), wide);
      for (const CExpr& operand : operands) rounded.uses.Merge(operand.uses);
      return Emit(type, rounded, dest);
    }
    case ElemType::kI8:
    case ElemType::kI32:
      break;
  }
  // Integers wrap the product and the sum: there is no rounding to fuse.
  CExpr product = VectorArithmetic(ir::Op::kMul, operands[0], operands[1],
                                   shape.elem, type.lanes);
  CExpr partial = Emit(type, product, nullptr);
  return Emit(type,
              VectorArithmetic(ir::Op::kAdd, partial, operands[2], shape.elem,
                               type.lanes),
              dest);
}

absl::StatusOr<CExpr> VectorEmitter::Contract(const ir::Node& e,
                                              const VectorShape& shape,
                                              const CExpr* dest) {
  std::vector<VectorShape> shapes;
  std::vector<CExpr> operands;
  for (size_t i = 0; i < 3; ++i) {
    auto operand_shape = ShapeOf(*e.operand(i));
    if (!operand_shape.ok()) return operand_shape.status();
    shapes.push_back(*std::move(operand_shape));
    auto value = Vector(*e.operand(i));
    if (!value.ok()) return value.status();
    operands.push_back(AddressOf(*value));
  }
  std::vector<std::vector<int64_t>> maps;
  std::vector<int64_t> extents;
  for (size_t i = 0; i < 3; ++i) {
    std::vector<int64_t> map;
    for (const ir::Node* d : e.operand(3 + i)->operands()) {
      map.push_back(d->int_value());
      if (static_cast<size_t>(d->int_value()) >= extents.size()) {
        extents.resize(d->int_value() + 1, 1);
      }
      extents[d->int_value()] = shapes[i].dims[map.size() - 1];
    }
    maps.push_back(std::move(map));
  }
  // Every iteration point is one lane of one step.
  int64_t points = 1;
  for (int64_t extent : extents) points *= extent;
  if (points > kMaxContractLaneSteps) {
    return ErrorAt(e.loc(),
                   absl::StrCat("emit-c writes a contract out step by step, "
                                "at most ",
                                kMaxContractLaneSteps,
                                " lanes times reduction points, and this one "
                                "has ",
                                points, ": split it into smaller contracts"));
  }
  std::optional<ir::ReductionKind> kind = ir::ContractKind(e);
  if (!kind) return Unexpected(e, "a contract of a known kind");
  // A column times a row into ACC (vectorize's `lowering contract`): one
  // step, ACC + A x B, a row at a time as an outer product's.
  if (*kind == ir::ReductionKind::kAdd && OuterProductByRows(shape) &&
      maps == std::vector<std::vector<int64_t>>{{0, 2}, {2, 1}, {0, 1}} &&
      extents[2] == 1) {
    return EmitCall(DataType(shape),
                    emitc::OuterProductRows(shape, RowStep::kMulAdd), operands,
                    dest);
  }
  return EmitCall(DataType(shape),
                  emitc::Contract(shapes[0], shapes[1], shapes[2], maps, *kind),
                  operands, dest);
}

absl::StatusOr<CExpr> VectorEmitter::ShuffleOf(
    const ir::Node& source, const std::vector<int64_t>& lanes,
    const VectorShape& shape, const CExpr* dest) {
  const VectorCType type = DataType(shape);
  auto v = Vector(source);
  if (!v.ok()) return v.status();
  // Padding lanes take lane 0.
  std::vector<int64_t> indices(type.lanes, 0);
  std::copy(lanes.begin(), lanes.end(), indices.begin());
  CExpr shuffled = Typed(Primary(Shuffle(v->text, indices)), type);
  shuffled.uses.Merge(v->uses);
  return Emit(type, shuffled, dest);
}

absl::StatusOr<CExpr> VectorEmitter::InsertStridedSlice(
    const ir::Node& e, const VectorShape& shape, const CExpr* dest) {
  const VectorCType type = DataType(shape);
  auto x_shape = ShapeOf(*e.operand(0));
  if (!x_shape.ok()) return x_shape.status();
  const std::vector<int64_t> from_x = ir::InsertedSliceLanes(
      x_shape->dims, shape.dims, ir::ListValues(*e.operand(2)),
      ir::ListValues(*e.operand(3)));
  // X's lanes, widened to V's C type, then shuffled in where they go
  // (indices from N on are the second operand's).
  std::vector<int64_t> widened(type.lanes, 0);
  for (int64_t l = 0; l < x_shape->lanes(); ++l) widened[l] = l;
  auto wide = ShuffleOf(*e.operand(0), widened, shape, nullptr);
  if (!wide.ok()) return wide.status();
  auto v = Vector(*e.operand(1));
  if (!v.ok()) return v.status();
  std::vector<std::string> lanes;
  for (int64_t l = 0; l < type.lanes; ++l) {
    const bool inserted = l < shape.lanes() && from_x[l] >= 0;
    lanes.push_back(absl::StrCat(inserted ? type.lanes + from_x[l] : l));
  }
  CExpr merged = Typed(
      Primary(absl::StrCat("__builtin_shufflevector(", v->text, ", ",
                           wide->text, ", ", absl::StrJoin(lanes, ", "), ")")),
      type);
  merged.uses.Merge(v->uses);
  merged.uses.Merge(wide->uses);
  return Emit(type, merged, dest);
}

absl::StatusOr<CExpr> VectorEmitter::OuterProduct(const ir::Node& e,
                                                  const VectorShape& shape,
                                                  const CExpr* dest) {
  const VectorCType type = DataType(shape);
  if (OuterProductByRows(shape) && e.operand(1)->type().is_vector()) {
    std::vector<CExpr> operands;
    for (const ir::Node* operand : e.operands()) {
      auto v = Vector(*operand);
      if (!v.ok()) return v.status();
      operands.push_back(AddressOf(*v));
    }
    return EmitCall(
        type,
        emitc::OuterProductRows(
            shape, e.num_operands() == 3 ? RowStep::kFma : RowStep::kProduct),
        operands, dest);
  }
  const int64_t columns = shape.dims.size() == 2 ? shape.dims[1] : 1;
  // A's lane i and B's lane j (or B itself) meet at lane (i, j).
  std::vector<int64_t> rows, cols;
  for (int64_t l = 0; l < shape.lanes(); ++l) {
    rows.push_back(l / columns);
    cols.push_back(l % columns);
  }
  auto a = ShuffleOf(*e.operand(0), rows, shape, nullptr);
  if (!a.ok()) return a.status();
  const ir::Node& b_node = *e.operand(1);
  absl::StatusOr<CExpr> b;
  if (b_node.type().is_vector()) {
    b = ShuffleOf(b_node, cols, shape, nullptr);
  } else {
    auto scalar = expr_.Data(b_node);
    if (!scalar.ok()) return scalar.status();
    b = EmitCall(type, emitc::Broadcast(type), {*scalar}, nullptr);
  }
  if (!b.ok()) return b.status();
  if (e.num_operands() == 2) {
    return Emit(type,
                VectorArithmetic(ir::Op::kMul, *a, *b, shape.elem, type.lanes),
                dest);
  }
  // With ACC, one rounding per lane: MLIR lowers it to fma.
  auto acc = Vector(*e.operand(2));
  if (!acc.ok()) return acc.status();
  return FmaOf({*a, *b, *acc}, shape, dest);
}

absl::StatusOr<CExpr> VectorEmitter::MultiReduction(const ir::Node& e,
                                                    const VectorShape& shape,
                                                    const CExpr* dest) {
  const VectorCType type = DataType(shape);
  std::optional<ir::ReductionKind> kind = ir::FindReductionKind(e.name());
  if (!kind) return Unexpected(e, "a reduction kind");
  auto from = ShapeOf(*e.operand(0));
  if (!from.ok()) return from.status();
  auto v = Vector(*e.operand(0));
  if (!v.ok()) return v.status();
  auto acc = Vector(*e.operand(1));
  if (!acc.ok()) return acc.status();
  const std::vector<int64_t> reduced = ir::ListValues(*e.operand(2));
  const bool halving =
      ir::MultiReductionOrder(e) == ir::ReductionOrder::kHalving;
  if (TransposesByRows(*from) && reduced == std::vector<int64_t>{1}) {
    return EmitCall(type,
                    halving ? HalvingRowReduction(*kind, *from)
                            : RowReduction(*kind, *from),
                    {AddressOf(*v), AddressOf(*acc)}, dest);
  }
  // Each step's lanes of V, one statement a step; then ACC and the steps
  // combined in order, or the steps pairwise, halving, and ACC last.
  std::vector<CExpr> parts;
  for (const std::vector<int64_t>& step :
       ir::MultiReductionLanes(from->dims, reduced)) {
    std::vector<int64_t> indices(type.lanes, 0);
    std::copy(step.begin(), step.end(), indices.begin());
    CExpr lanes = Typed(Primary(Shuffle(v->text, indices)), type);
    lanes.uses.Merge(v->uses);
    parts.push_back(Emit(type, lanes, nullptr));
  }
  CExpr sum = Emit(type, *acc, nullptr);
  if (!halving) {
    for (const CExpr& part : parts) {
      Emit(type, CombineLanes(*kind, sum, part, shape.elem, type.lanes), &sum);
    }
    return Result(type, sum, dest);
  }
  for (size_t half = parts.size() / 2; half >= 1; half /= 2) {
    for (size_t s = 0; s < half; ++s) {
      Emit(type,
           CombineLanes(*kind, parts[s], parts[s + half], shape.elem,
                        type.lanes),
           &parts[s]);
    }
  }
  Emit(type, CombineLanes(*kind, sum, parts[0], shape.elem, type.lanes), &sum);
  return Result(type, sum, dest);
}

absl::StatusOr<CExpr> VectorEmitter::CreateMask(const ir::Node& e,
                                                const VectorCType& type) {
  // Per dimension j, a constant vector of each lane's position k_j (as
  // 32-bit lanes), compared with the bound: set where every k_j < B_j.
  const std::vector<int64_t> dims = ir::ListValues(*e.operand(0));
  const std::vector<int64_t> strides = ir::LaneStridesOf(dims);
  const VectorCType positions = SignedType(32, type.lanes);
  const int64_t count = ir::LaneCount(dims);
  std::optional<CExpr> mask;
  for (size_t j = 0; j < dims.size(); ++j) {
    auto bound = expr_.Control(*e.operand(j + 1));
    if (!bound.ok()) return bound.status();
    std::vector<std::string> lanes;
    for (int64_t l = 0; l < type.lanes; ++l) {
      lanes.push_back(absl::StrCat(l < count ? l / strides[j] % dims[j] : 0));
    }
    // The bound, clamped to [0, D_j] so that it fits 32-bit lanes.
    CExpr clamped = Primary(absl::StrCat(
        "(int32_t)(", bound->text, " < 0 ? 0 : ", bound->text, " > ", dims[j],
        " ? ", dims[j], " : ", bound->text, ")"));
    clamped.uses = bound->uses;
    CExpr less = Typed(
        Binary("<",
               Primary(absl::StrCat("(", VectorTypeName(positions), "){",
                                    absl::StrJoin(lanes, ", "), "}")),
               clamped),
        positions);
    CExpr set = Emit(positions, less, nullptr);
    mask = mask ? Emit(positions, Binary("&", *mask, set), nullptr) : set;
  }
  if (positions == type) return *mask;
  CExpr converted = Typed(Primary(ConvertVector(mask->text, type)), type);
  converted.uses = mask->uses;
  return Emit(type, converted, nullptr);
}

absl::StatusOr<CExpr> VectorEmitter::Insert(const ir::Node& e,
                                            const VectorShape& shape,
                                            const CExpr* dest) {
  const VectorCType type = DataType(shape);
  const ir::Node& value = *e.operand(0);
  auto v = Vector(*e.operand(1));
  if (!v.ok()) return v.status();
  auto [first, count] = Part(shape, Positions(e, 2));
  if (!value.type().is_vector()) {
    auto scalar = expr_.Data(value);
    if (!scalar.ok()) return scalar.status();
    CExpr copy = Emit(type, *v, nullptr);
    CExpr lane = Subscript(copy, IntLiteral(first));
    Uses uses = scalar->uses;
    AddLine(absl::StrCat(lane.text, " = ", scalar->text, ";"), uses);
    return Result(type, copy, dest);
  }
  auto x = Vector(value);
  if (!x.ok()) return x.status();
  if (shape.WiderThanRegister() && count == PaddedLanes(count)) {
    // V lives in memory: the part is copied in (a shuffle of all its lanes
    // would move them one by one), in place when the insert is assigned to
    // V itself.
    const bool in_place = dest != nullptr && dest->text == v->text;
    CExpr copy = in_place ? *dest : Emit(type, *v, dest);
    Uses uses = x->uses;
    uses.needs.memcpy = true;
    AddLine(absl::StrCat("memcpy((", ElemTypeCName(shape.elem), " *)&",
                         copy.text, " + ", first, ", &", x->text, ", sizeof ",
                         x->text, ");"),
            uses);
    return copy;
  }
  // The part, widened to the lanes of V, then lanes of V and of the part
  // shuffled together (indices from N on are the second operand's).
  std::vector<int64_t> widened(type.lanes, 0);
  for (int64_t l = 0; l < count; ++l) widened[l] = l;
  CExpr part = Primary(Shuffle(x->text, widened));
  part.uses = x->uses;
  CExpr wide = Emit(type, part, nullptr);
  std::vector<std::string> lanes;
  for (int64_t l = 0; l < type.lanes; ++l) {
    lanes.push_back(absl::StrCat(
        l >= first && l < first + count ? type.lanes + l - first : l));
  }
  CExpr merged =
      Primary(absl::StrCat("__builtin_shufflevector(", v->text, ", ", wide.text,
                           ", ", absl::StrJoin(lanes, ", "), ")"));
  merged.uses = v->uses;
  return Emit(type, merged, dest);
}

absl::StatusOr<std::vector<CExpr>> VectorEmitter::TransferArguments(
    View view, const ir::TransferParts& parts, const VectorShape& shape) {
  absl::Span<ir::Node* const> indices = parts.indices;
  const std::vector<int64_t> lane_dims =
      ir::TransferDims(parts, static_cast<int64_t>(indices.size()),
                       static_cast<int64_t>(shape.dims.size()));
  const std::vector<int64_t> in_bounds = parts.in_bounds != nullptr
                                             ? ir::ListValues(*parts.in_bounds)
                                             : std::vector<int64_t>();
  // The lane dimension along tensor dimension k whose lanes the verifier
  // proved in bounds (in-bounds 1), or -1.
  auto inside = [&](size_t k) -> int64_t {
    for (size_t j = 0; j < lane_dims.size(); ++j) {
      if (lane_dims[j] == static_cast<int64_t>(k)) {
        return j < in_bounds.size() && in_bounds[j] == 1
                   ? static_cast<int64_t>(j)
                   : -1;
      }
    }
    return -1;
  };
  std::vector<CExpr> values;
  for (size_t k = 0; k < indices.size(); ++k) {
    auto index = expr_.Control(*indices[k]);
    if (!index.ok()) return index.status();
    values.push_back(*std::move(index));
    if (std::find(lane_dims.begin(), lane_dims.end(),
                  static_cast<int64_t>(k)) == lane_dims.end() ||
        inside(k) >= 0) {
      // The indices no lane runs along, in bounds (the verifier proves
      // it), move the pointer; so do those of lanes proved in bounds,
      // whose helper's tests then fold away (a matmul's dot tiles ran at
      // 52 GFLOP/s with them tested at each step, 68 without).
      const int d = view.kept[k];
      view.offsets[d] = Add(view.offsets[d], values.back());
    }
  }
  // Lane dimension j runs along the view's dimension lane_dims[j].
  std::vector<CExpr> positions, extents, strides;
  for (int64_t k : lane_dims) {
    const int64_t j = inside(static_cast<size_t>(k));
    positions.push_back(j >= 0 ? IntLiteral(0) : values[k]);
    extents.push_back(j >= 0 ? IntLiteral(shape.dims[j]) : view.extents[k]);
    strides.push_back(view.strides[view.kept[k]]);
  }
  std::vector<CExpr> arguments = {ExprEmitter::FirstElement(view)};
  for (auto* list : {&positions, &extents, &strides}) {
    arguments.insert(arguments.end(), list->begin(), list->end());
  }
  return arguments;
}

absl::StatusOr<CExpr> VectorEmitter::Scalar(const ir::Node& e) {
  const ir::Node& source = *e.operand(0);
  auto shape = ShapeOf(source);
  if (!shape.ok()) return shape.status();
  auto v = Vector(source);
  if (!v.ok()) return v.status();
  if (e.is(ir::Op::kReduction)) {
    std::optional<ir::ReductionKind> kind = ir::FindReductionKind(e.name());
    if (!kind) return Unexpected(e, "a reduction kind");
    return CallVectorHelper(Reduction(*kind, *shape), {AddressOf(*v)});
  }
  if (!e.is(ir::Op::kExtract)) return Unexpected(e, "a scalar");
  return Subscript(*v, IntLiteral(Part(*shape, Positions(e, 1)).first));
}

absl::StatusOr<CExpr> VectorEmitter::ScalarSelect(const ir::Node& e) {
  auto condition = expr_.Control(*e.operand(0));
  if (!condition.ok()) return condition.status();
  std::vector<Line> outer = TakeLines();
  std::vector<CExpr> values;
  std::vector<std::vector<Line>> branches;
  for (size_t i = 1; i < 3; ++i) {
    auto value = expr_.Data(*e.operand(i));
    if (!value.ok()) return value.status();
    values.push_back(*std::move(value));
    branches.push_back(TakeLines());
  }
  lines_ = std::move(outer);
  if (branches[0].empty() && branches[1].empty()) {
    return Conditional(*condition, values[0], values[1]);
  }
  // Only the chosen operand is evaluated, as in run-sim: an operand that
  // needs statements is computed in a branch of an if.
  const std::string name = scope_.Fresh("s");
  AddLine(absl::StrCat(ElemTypeCName(e.type().elem()), " ", name, ";"), {});
  AddLine(absl::StrCat("if (", condition->text, ") {"), condition->uses);
  for (size_t i = 0; i < 2; ++i) {
    if (i == 1) AddLine("} else {", {});
    for (Line& line : branches[i]) {
      ++line.depth;
      lines_.push_back(std::move(line));
    }
    lines_.push_back(Line{1, absl::StrCat(name, " = ", values[i].text, ";"),
                          values[i].uses});
  }
  AddLine("}", {});
  return Primary(name);
}

absl::StatusOr<CExpr> VectorEmitter::Pointer(const ir::Node& name) {
  auto binding = Variable(name);
  if (!binding.ok()) return binding.status();
  CExpr pointer = Primary((*binding)->c_name);
  pointer.uses.reads.push_back(*binding);
  if ((*binding)->by_pointer) return pointer;
  return emitc::Cast(absl::StrCat(ElemTypeCName((*binding)->elem), " *"),
                     AddressOf(pointer));
}

absl::Status VectorEmitter::Assign(const ir::Node& stmt) {
  auto binding = Variable(*stmt.operand(0));
  if (!binding.ok()) return binding.status();
  CExpr target = Primary((*binding)->c_name);
  target.uses.writes.push_back(*binding);
  if (!(*binding)->by_pointer) {
    return Compute(*stmt.operand(1), &target).status();
  }
  auto shape = ShapeOf(*stmt.operand(1));
  if (!shape.ok()) return shape.status();
  auto value = Vector(*stmt.operand(1));
  if (!value.ok()) return value.status();
  CExpr call =
      CallVectorHelper(emitc::Store(*shape), {target, AddressOf(*value)});
  AddLine(call.text + ";", call.uses);
  return absl::OkStatus();
}

absl::Status VectorEmitter::TransferWrite(const ir::Node& stmt) {
  const ir::TransferParts parts = ir::PartsOf(stmt);
  const ir::Node& value = *parts.value;
  auto shape = ShapeOf(value);
  if (!shape.ok()) return shape.status();
  auto v = Vector(value);
  if (!v.ok()) return v.status();
  auto view = expr_.WindowOf(*parts.tensor);
  if (!view.ok()) return view.status();
  auto arguments = TransferArguments(*view, parts, *shape);
  if (!arguments.ok()) return arguments.status();
  arguments->push_back(AddressOf(*v));
  VectorHelper helper =
      emitc::TransferWrite(*shape, parts.nontemporal != nullptr);
  if (parts.mask != nullptr) {
    auto mask =
        Mask(*parts.mask, MaskType(shape->elem, DataType(*shape).lanes));
    if (!mask.ok()) return mask.status();
    arguments->push_back(AddressOf(*mask));
    helper = MaskedTransferWrite(*shape);
  }
  CExpr call = CallVectorHelper(helper, *arguments);
  AddLine(call.text + ";", call.uses);
  return absl::OkStatus();
}

}  // namespace tessel::emitc
