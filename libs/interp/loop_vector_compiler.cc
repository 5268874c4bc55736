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
      auto binding = Lookup(*e.operand(0), true);
      if (!binding.ok()) return binding.status();
      if (e.num_operands() != static_cast<size_t>(binding->rank) + 2) {
        return NotVerified(e, "a transfer-read with the wrong index count");
      }
      expr.op = ExprOp::kTransferRead;
      expr.slot = binding->slot;
      for (size_t i = 1; i + 1 < e.num_operands(); ++i) {
        auto index = Control(*e.operand(i));
        if (!index.ok()) return index.status();
        expr.args.push_back(*std::move(index));
      }
      auto pad = Data(*e.operand(e.num_operands() - 1));
      if (!pad.ok()) return pad.status();
      expr.args.push_back(*std::move(pad));
      return expr;
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
    case ir::Op::kContract:
      expr.op = ExprOp::kContract;
      for (size_t i = 3; i < 6; ++i) {
        std::vector<int> map;
        for (const ir::Node* d : e.operand(i)->operands()) {
          map.push_back(static_cast<int>(d->int_value()));
        }
        expr.maps.push_back(std::move(map));
      }
      return VectorOperands(e, std::move(expr), 0, 3);
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
  auto value = Vector(*s.operand(0));
  if (!value.ok()) return value.status();
  auto binding = Lookup(*s.operand(1), true);
  if (!binding.ok()) return binding.status();
  if (s.num_operands() != static_cast<size_t>(binding->rank) + 2) {
    return NotVerified(s, "a transfer-write with the wrong index count");
  }
  Stmt stmt;
  stmt.op = StmtOp::kTransferWrite;
  stmt.where = &s;
  stmt.slot = binding->slot;
  stmt.elem = value->type;
  for (size_t i = 2; i < s.num_operands(); ++i) {
    auto index = Control(*s.operand(i));
    if (!index.ok()) return index.status();
    stmt.exprs.push_back(*std::move(index));
  }
  stmt.exprs.push_back(*std::move(value));
  return stmt;
}

}  // namespace loop
}  // namespace tessel
