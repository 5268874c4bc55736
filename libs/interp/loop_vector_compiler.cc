// The vector level compiled for the executor (loop_program.h): a position
// that needs a vector compiles with Vector, a select's condition with Mask,
// and a reduction or a lane of extract, which are scalars, with
// VectorScalar (reached from Data). Shapes come from the elaborated types.
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_proc_compiler.h"
#include "libs/ir/keywords.h"

namespace tessel {
namespace loop {
namespace {

std::vector<int64_t> ShapeOf(const ir::Type& type) {
  std::vector<int64_t> shape;
  for (const ir::Dim& dim : type.dims()) shape.push_back(dim.value);
  return shape;
}

// Literal positions: operands first... of `e`.
std::vector<int64_t> Positions(const ir::Node& e, size_t first) {
  std::vector<int64_t> positions;
  for (size_t i = first; i < e.num_operands(); ++i) {
    positions.push_back(e.operand(i)->int_value());
  }
  return positions;
}

ArithOp ReductionArith(ir::ReductionKind kind) {
  switch (kind) {
    case ir::ReductionKind::kAdd:
      return ArithOp::kAdd;
    case ir::ReductionKind::kMul:
      return ArithOp::kMul;
    case ir::ReductionKind::kMax:
      return ArithOp::kMax;
    case ir::ReductionKind::kMin:
      return ArithOp::kMin;
  }
  return ArithOp::kAdd;  // Not reached: the switch covers every kind.
}

}  // namespace

absl::StatusOr<Expr> ProcCompiler::VectorOperands(const ir::Node& e, Expr expr,
                                                  size_t first, size_t count) {
  for (size_t i = first; i < first + count; ++i) {
    auto operand = Vector(*e.operand(i));
    if (!operand.ok()) return operand.status();
    expr.args.push_back(*std::move(operand));
  }
  return expr;
}

absl::StatusOr<Expr> ProcCompiler::Vector(const ir::Node& e) {
  const ir::Type& type = e.type();
  if (!type.is_vector()) {
    return NotVerified(
        e, absl::StrCat("'", NodeText(e), "' is not typed as a vector"));
  }
  Expr expr;
  expr.where = &e;
  expr.type = type.elem();
  expr.shape = ShapeOf(type);
  switch (e.op()) {
    case ir::Op::kRef: {
      auto binding = Lookup(e, true);
      if (!binding.ok()) return binding.status();
      expr.op = ExprOp::kVectorVar;
      expr.slot = binding->slot;
      return expr;
    }
    case ir::Op::kTransferRead: {
      const ir::TransferParts parts = ir::PartsOf(e);
      auto binding = Lookup(*parts.tensor, true);
      if (!binding.ok()) return binding.status();
      if (parts.pad == nullptr ||
          parts.indices.size() != static_cast<size_t>(binding->rank)) {
        return NotVerified(e, "a transfer-read with the wrong index count");
      }
      expr.op = ExprOp::kTransferRead;
      expr.slot = binding->slot;
      expr.ints = ir::TransferDims(parts, binding->rank,
                                   static_cast<int64_t>(expr.shape.size()));
      expr.value = parts.mask != nullptr;
      auto pad = Data(*parts.pad);
      if (!pad.ok()) return pad.status();
      if (auto status = TransferOperands(parts, expr.args, *std::move(pad));
          !status.ok()) {
        return status;
      }
      return expr;
    }
    case ir::Op::kTranspose: {
      auto source = Vector(*e.operand(0));
      if (!source.ok()) return source.status();
      expr.op = ExprOp::kShuffle;
      expr.ints =
          ir::TransposeLanes(source->shape, ir::ListValues(*e.operand(1)));
      expr.args.push_back(*std::move(source));
      return expr;
    }
    case ir::Op::kShapeCast: {
      // The lanes stay in order; a shuffle gives them their new shape.
      expr.op = ExprOp::kShuffle;
      for (int64_t l = 0; l < ir::LaneCount(expr.shape); ++l) {
        expr.ints.push_back(l);
      }
      return VectorOperands(e, std::move(expr), 0, 1);
    }
    case ir::Op::kExtractStridedSlice: {
      auto source = Vector(*e.operand(0));
      if (!source.ok()) return source.status();
      expr.op = ExprOp::kShuffle;
      expr.ints = ir::StridedSliceLanes(
          source->shape, ir::ListValues(*e.operand(1)),
          ir::ListValues(*e.operand(2)), ir::ListValues(*e.operand(3)));
      expr.args.push_back(*std::move(source));
      return expr;
    }
    case ir::Op::kInsertStridedSlice: {
      expr.op = ExprOp::kInsertSlice;
      expr.ints = ir::InsertedSliceLanes(
          ShapeOf(e.operand(0)->type()), expr.shape,
          ir::ListValues(*e.operand(2)), ir::ListValues(*e.operand(3)));
      return VectorOperands(e, std::move(expr), 0, 2);
    }
    case ir::Op::kOuterProduct:
      return OuterProduct(e, std::move(expr));
    case ir::Op::kMultiReduction: {
      std::optional<ir::ReductionKind> kind = ir::FindReductionKind(e.name());
      if (!kind) return NotVerified(e, "an unknown reduction");
      expr.op = ExprOp::kMultiReduction;
      expr.arith = ReductionArith(*kind);
      expr.value =
          ir::MultiReductionOrder(e) == ir::ReductionOrder::kHalving ? 1 : 0;
      for (const std::vector<int64_t>& step : ir::MultiReductionLanes(
               ShapeOf(e.operand(0)->type()), ir::ListValues(*e.operand(2)))) {
        expr.maps.emplace_back(step.begin(), step.end());
      }
      return VectorOperands(e, std::move(expr), 0, 2);
    }
    case ir::Op::kBroadcast: {
      expr.op = ExprOp::kBroadcast;
      const ir::Node& source = *e.operand(0);
      expr.value = source.type().is_vector();
      auto compiled = expr.value ? Vector(source) : Data(source);
      if (!compiled.ok()) return compiled.status();
      expr.args.push_back(*std::move(compiled));
      return expr;
    }
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
    case ir::Op::kMax:
    case ir::Op::kMin:
      expr.op = ExprOp::kVectorArith;
      expr.arith = *ArithOpOf(e.op());
      return VectorOperands(e, std::move(expr), 0, 2);
    case ir::Op::kNeg:
      expr.op = ExprOp::kVectorNegate;
      return VectorOperands(e, std::move(expr), 0, 1);
    case ir::Op::kCast:
      expr.op = ExprOp::kVectorCast;
      return VectorOperands(e, std::move(expr), 0, 1);
    case ir::Op::kFma:
      expr.op = ExprOp::kVectorFma;
      return VectorOperands(e, std::move(expr), 0, 3);
    case ir::Op::kSelect: {
      auto mask = Mask(*e.operand(0));
      if (!mask.ok()) return mask.status();
      expr.op = ExprOp::kVectorSelect;
      expr.args.push_back(*std::move(mask));
      return VectorOperands(e, std::move(expr), 1, 2);
    }
    case ir::Op::kContract: {
      std::optional<ir::ReductionKind> kind = ir::ContractKind(e);
      if (!kind) return NotVerified(e, "an unknown kind of contract");
      expr.op = ExprOp::kContract;
      expr.arith = ReductionArith(*kind);
      for (size_t i = 3; i < 6; ++i) {
        std::vector<int> map;
        for (const ir::Node* d : e.operand(i)->operands()) {
          map.push_back(static_cast<int>(d->int_value()));
        }
        expr.maps.push_back(std::move(map));
      }
      return VectorOperands(e, std::move(expr), 0, 3);
    }
    case ir::Op::kExtract:
      expr.op = ExprOp::kExtractVector;
      expr.ints = Positions(e, 1);
      return VectorOperands(e, std::move(expr), 0, 1);
    case ir::Op::kInsert: {
      expr.op = ExprOp::kInsert;
      expr.ints = Positions(e, 2);
      const ir::Node& value = *e.operand(0);
      expr.value = value.type().is_vector();
      auto compiled = expr.value ? Vector(value) : Data(value);
      if (!compiled.ok()) return compiled.status();
      expr.args.push_back(*std::move(compiled));
      return VectorOperands(e, std::move(expr), 1, 1);
    }
    default:
      return NotVerified(
          e, absl::StrCat("'", NodeText(e), "' is not a vector expression"));
  }
}

absl::StatusOr<Expr> ProcCompiler::Mask(const ir::Node& e) {
  Expr expr;
  expr.where = &e;
  switch (e.op()) {
    case ir::Op::kAnd:
    case ir::Op::kOr:
    case ir::Op::kNot: {
      expr.op = e.is(ir::Op::kAnd)  ? ExprOp::kMaskAnd
                : e.is(ir::Op::kOr) ? ExprOp::kMaskOr
                                    : ExprOp::kMaskNot;
      for (const ir::Node* operand : e.operands()) {
        auto mask = Mask(*operand);
        if (!mask.ok()) return mask.status();
        expr.args.push_back(*std::move(mask));
      }
      expr.shape = expr.args[0].shape;  // the lanes it chooses
      return expr;
    }
    case ir::Op::kCreateMask:
      expr.op = ExprOp::kMaskCreate;
      expr.shape = ir::ListValues(*e.operand(0));
      for (size_t j = 1; j < e.num_operands(); ++j) {
        auto bound = Control(*e.operand(j));
        if (!bound.ok()) return bound.status();
        expr.args.push_back(*std::move(bound));
      }
      return expr;
    default:
      break;
  }
  std::optional<CompareOp> compare = CompareOpOf(e.op());
  if (!compare) {
    return NotVerified(
        e, absl::StrCat("'", NodeText(e), "' is not a lane comparison"));
  }
  expr.op = ExprOp::kMaskCompare;
  expr.compare = *compare;
  auto compiled = VectorOperands(e, std::move(expr), 0, 2);
  if (compiled.ok()) compiled->shape = compiled->args[0].shape;
  return compiled;
}

absl::StatusOr<Expr> ProcCompiler::VectorScalar(const ir::Node& e) {
  Expr expr;
  expr.where = &e;
  expr.type = e.type().elem();
  if (e.is(ir::Op::kReduction)) {
    std::optional<ir::ReductionKind> kind = ir::FindReductionKind(e.name());
    if (!kind) return NotVerified(e, "an unknown reduction");
    expr.op = ExprOp::kReduction;
    expr.arith = ReductionArith(*kind);
  } else {
    expr.op = ExprOp::kExtractLane;
    expr.ints = Positions(e, 1);
  }
  return VectorOperands(e, std::move(expr), 0, 1);
}

absl::StatusOr<Stmt> ProcCompiler::AssignVector(const ir::Node& s) {
  if (!s.is(ir::Op::kAssign)) return NotVerified(s, "a reduce of a vector");
  auto binding = Lookup(*s.operand(0), true);
  if (!binding.ok()) return binding.status();
  auto value = Vector(*s.operand(1));
  if (!value.ok()) return value.status();
  Stmt stmt;
  stmt.op = StmtOp::kAssignVector;
  stmt.where = &s;
  stmt.slot = binding->slot;
  stmt.elem = value->type;
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

absl::StatusOr<Stmt> ProcCompiler::TransferWrite(const ir::Node& s) {
  const ir::TransferParts parts = ir::PartsOf(s);
  auto value = Vector(*parts.value);
  if (!value.ok()) return value.status();
  auto binding = Lookup(*parts.tensor, true);
  if (!binding.ok()) return binding.status();
  if (parts.indices.size() != static_cast<size_t>(binding->rank)) {
    return NotVerified(s, "a transfer-write with the wrong index count");
  }
  Stmt stmt;
  stmt.op = StmtOp::kTransferWrite;
  stmt.where = &s;
  stmt.slot = binding->slot;
  stmt.elem = value->type;
  stmt.lane_dims = ir::TransferDims(
      parts, binding->rank, static_cast<int64_t>(value->shape.size()));
  if (auto status = TransferOperands(parts, stmt.exprs, *std::move(value));
      !status.ok()) {
    return status;
  }
  return stmt;
}

absl::Status ProcCompiler::TransferOperands(const ir::TransferParts& parts,
                                            std::vector<Expr>& out,
                                            Expr value) {
  for (const ir::Node* index : parts.indices) {
    auto compiled = Control(*index);
    if (!compiled.ok()) return compiled.status();
    out.push_back(*std::move(compiled));
  }
  out.push_back(std::move(value));
  if (parts.mask != nullptr) {
    auto mask = Mask(*parts.mask);
    if (!mask.ok()) return mask.status();
    out.push_back(*std::move(mask));
  }
  return absl::OkStatus();
}

absl::StatusOr<Expr> ProcCompiler::OuterProduct(const ir::Node& e, Expr expr) {
  const int64_t columns = expr.shape.size() == 2 ? expr.shape[1] : 1;
  // A's lane i and B's lane j (or B itself) meet at lane (i, j).
  auto spread = [&](const ir::Node& operand,
                    bool row) -> absl::StatusOr<Expr> {
    Expr lanes;
    lanes.where = &operand;
    lanes.type = expr.type;
    lanes.shape = expr.shape;
    if (!operand.type().is_vector()) {
      lanes.op = ExprOp::kBroadcast;
      auto scalar = Data(operand);
      if (!scalar.ok()) return scalar.status();
      lanes.args.push_back(*std::move(scalar));
      return lanes;
    }
    auto source = Vector(operand);
    if (!source.ok()) return source.status();
    lanes.op = ExprOp::kShuffle;
    for (int64_t l = 0; l < ir::LaneCount(expr.shape); ++l) {
      lanes.ints.push_back(row ? l / columns : l % columns);
    }
    lanes.args.push_back(*std::move(source));
    return lanes;
  };
  for (size_t i = 0; i < 2; ++i) {
    auto lanes = spread(*e.operand(i), i == 0);
    if (!lanes.ok()) return lanes.status();
    expr.args.push_back(*std::move(lanes));
  }
  if (e.num_operands() == 2) {
    expr.op = ExprOp::kVectorArith;
    expr.arith = ArithOp::kMul;
    return expr;
  }
  // With an accumulator, one rounding per lane, as MLIR lowers it to fma.
  expr.op = ExprOp::kVectorFma;
  return VectorOperands(e, std::move(expr), 2, 1);
}

}  // namespace loop
}  // namespace tessel
