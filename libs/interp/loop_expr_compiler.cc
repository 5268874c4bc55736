// Expressions of the loop level, from the IR's ops and elaborated types: a
// position that needs control (a bound, an index, a condition) compiles
// with Control, one that needs data with Data; a comparison compares data
// when its operands are typed as data.
#include <utility>

#include "absl/strings/str_cat.h"
#include "libs/interp/diagnostics.h"
#include "libs/interp/loop_proc_compiler.h"
#include "libs/ir/views.h"

namespace tessel {
namespace loop {
namespace {

// The element type elaboration gave the data expression `e`.
absl::StatusOr<ElemType> ElemOf(const ir::Node& e) {
  if (!e.type().is_elem()) {
    return NotVerified(
        e, absl::StrCat("'", NodeText(e), "' is not typed as a data value"));
  }
  return e.type().elem();
}

bool IsData(const ir::Node& e) { return e.type().is_elem(); }

}  // namespace

absl::StatusOr<Binding> ProcCompiler::Lookup(const ir::Node& ref,
                                             bool data) const {
  auto it = ref.is(ir::Op::kRef) ? bindings_.find(ref.def()) : bindings_.end();
  if (it == bindings_.end()) {
    return NotVerified(
        ref, absl::StrCat("'", NodeText(ref), "' names nothing bound here"));
  }
  if (it->second.is_data != data) {
    return NotVerified(ref, absl::StrCat("'", ref.name(), "' is ",
                                         data ? "a control value, not data"
                                              : "data, not a control value"));
  }
  return it->second;
}

absl::StatusOr<Expr> ProcCompiler::Operands(const ir::Node& e, Expr expr,
                                            bool data) {
  expr.where = &e;
  for (const ir::Node* operand : e.operands()) {
    auto compiled = data ? Data(*operand) : Control(*operand);
    if (!compiled.ok()) return compiled.status();
    expr.args.push_back(*std::move(compiled));
  }
  return expr;
}

absl::StatusOr<Expr> ProcCompiler::Comparison(const ir::Node& e, CompareOp op) {
  Expr expr;
  expr.compare = op;
  if (e.num_operands() != 2) return NotVerified(e, "a malformed comparison");
  const ir::Node& a = *e.operand(0);
  const ir::Node& b = *e.operand(1);
  if (!IsData(a) && !IsData(b)) {
    expr.op = ExprOp::kCompareIndex;
    return Operands(e, std::move(expr), false);
  }
  auto type = ElemOf(IsData(a) ? a : b);
  if (!type.ok()) return type.status();
  expr.op = ExprOp::kCompareData;
  expr.type = *type;
  auto compiled = Operands(e, std::move(expr), true);
  if (compiled.ok() && (compiled->args[0].type != compiled->args[1].type)) {
    return NotVerified(e, "the operands of a comparison have two types");
  }
  return compiled;
}

absl::StatusOr<Expr> ProcCompiler::Control(const ir::Node& e) {
  Expr expr;
  expr.where = &e;
  switch (e.op()) {
    case ir::Op::kConst:
      if (e.is_float_literal()) {
        return NotVerified(e, "a float literal in a control expression");
      }
      expr.op = ExprOp::kIntConst;
      expr.value = e.int_value();
      return expr;
    case ir::Op::kRef: {
      auto binding = Lookup(e, false);
      if (!binding.ok()) return binding.status();
      expr.op = ExprOp::kControlVar;
      expr.slot = binding->slot;
      return expr;
    }
    case ir::Op::kAdd:
      expr.op = ExprOp::kAddIndex;
      break;
    case ir::Op::kSub:
      expr.op = ExprOp::kSubIndex;
      break;
    case ir::Op::kMul:
      expr.op = ExprOp::kMulIndex;
      break;
    case ir::Op::kDiv:
      expr.op = ExprOp::kFloorDiv;
      break;
    case ir::Op::kFloorMod:
      expr.op = ExprOp::kFloorMod;
      break;
    case ir::Op::kMin:
      expr.op = ExprOp::kMinIndex;
      break;
    case ir::Op::kMax:
      expr.op = ExprOp::kMaxIndex;
      break;
    case ir::Op::kNeg:
      expr.op = ExprOp::kNegIndex;
      break;
    case ir::Op::kAnd:
      expr.op = ExprOp::kAnd;
      break;
    case ir::Op::kOr:
      expr.op = ExprOp::kOr;
      break;
    case ir::Op::kNot:
      expr.op = ExprOp::kNot;
      break;
    case ir::Op::kLt:
    case ir::Op::kLe:
    case ir::Op::kGt:
    case ir::Op::kGe:
    case ir::Op::kEq:
    case ir::Op::kNe:
      return Comparison(e, *CompareOpOf(e.op()));
    case ir::Op::kStride: {
      auto binding = Lookup(*e.operand(0), true);
      if (!binding.ok()) return binding.status();
      const int64_t dim = e.operand(1)->int_value();
      if (dim < 0 || dim >= binding->rank) {
        return NotVerified(e, absl::StrCat("'", e.operand(0)->name(),
                                           "' has no dimension ", dim));
      }
      expr.op = ExprOp::kStride;
      expr.slot = binding->slot;
      expr.value = dim;
      return expr;
    }
    case ir::Op::kReadConfig: {
      auto slot = ConfigField(e);
      if (!slot.ok()) return slot.status();
      if (module_.config_slot(*slot).is_data) {
        return NotVerified(e, "a data field read as a control value");
      }
      expr.op = ExprOp::kReadControlConfig;
      expr.slot = *slot;
      return expr;
    }
    default:
      return NotVerified(
          e, absl::StrCat("'", NodeText(e), "' is not a control expression"));
  }
  return Operands(e, std::move(expr), false);
}

absl::StatusOr<Expr> ProcCompiler::Data(const ir::Node& e) {
  auto type = ElemOf(e);
  if (!type.ok()) return type.status();
  Expr expr;
  expr.where = &e;
  expr.type = *type;
  switch (e.op()) {
    case ir::Op::kConst: {
      expr.op = ExprOp::kDataConst;
      ScalarError error =
          e.is_float_literal()
              ? AdoptFloatLiteral(e.float_value(), *type, expr.constant)
              : AdoptIntLiteral(e.int_value(), *type, expr.constant);
      if (error != ScalarError::kNone) {
        return NotVerified(
            e, absl::StrCat("a float literal typed as ", ElemTypeName(*type)));
      }
      return expr;
    }
    case ir::Op::kRef:
    case ir::Op::kLoad:
      return Element(e);
    case ir::Op::kAdd:
    case ir::Op::kSub:
    case ir::Op::kMul:
    case ir::Op::kDiv:
    case ir::Op::kMax:
    case ir::Op::kMin: {
      expr.op = ExprOp::kArith;
      expr.arith = *ArithOpOf(e.op());
      auto compiled = Operands(e, std::move(expr), true);
      if (compiled.ok() && (compiled->args[0].type != *type ||
                            compiled->args[1].type != *type)) {
        return NotVerified(e, "the operands of an operation have two types");
      }
      return compiled;
    }
    case ir::Op::kNeg:
      expr.op = ExprOp::kNegate;
      return Operands(e, std::move(expr), true);
    case ir::Op::kFma: {
      expr.op = ExprOp::kFma;
      auto compiled = Operands(e, std::move(expr), true);
      if (compiled.ok()) {
        for (const Expr& operand : compiled->args) {
          if (operand.type != *type) {
            return NotVerified(e, "the operands of an fma have two types");
          }
        }
      }
      return compiled;
    }
    case ir::Op::kSelect: {
      auto cond = Control(*e.operand(0));
      if (!cond.ok()) return cond.status();
      expr.op = ExprOp::kSelect;
      expr.args.push_back(*std::move(cond));
      for (size_t i : {1, 2}) {
        auto operand = Data(*e.operand(i));
        if (!operand.ok()) return operand.status();
        if (operand->type != *type) {
          return NotVerified(e, "the operands of a select have two types");
        }
        expr.args.push_back(*std::move(operand));
      }
      return expr;
    }
    case ir::Op::kCast:
      expr.op = ExprOp::kCast;
      return Operands(e, std::move(expr), true);
    case ir::Op::kReduction:
    case ir::Op::kExtract:
      return VectorScalar(e);
    case ir::Op::kReadConfig: {
      auto slot = ConfigField(e);
      if (!slot.ok()) return slot.status();
      const ConfigSlot& field = module_.config_slot(*slot);
      if (!field.is_data || field.elem != *type) {
        return NotVerified(e, "a configuration field read as another type");
      }
      expr.op = ExprOp::kReadDataConfig;
      expr.slot = *slot;
      return expr;
    }
    default:
      return NotVerified(
          e, absl::StrCat("'", NodeText(e), "' is not a data expression"));
  }
}

absl::StatusOr<std::vector<Expr>> ProcCompiler::Indices(const ir::Node& load,
                                                        int rank) {
  std::vector<Expr> indices;
  if (load.is(ir::Op::kLoad)) {
    for (size_t i = 1; i < load.num_operands(); ++i) {
      auto index = Control(*load.operand(i));
      if (!index.ok()) return index.status();
      indices.push_back(*std::move(index));
    }
  }
  // The executor indexes the view's dimensions with these.
  if (indices.size() != static_cast<size_t>(rank)) {
    return NotVerified(
        load, absl::StrCat("'", NodeText(load), "' gives ", indices.size(),
                           " indices for rank ", rank));
  }
  return indices;
}

absl::StatusOr<Expr> ProcCompiler::Element(const ir::Node& e) {
  const ir::Node& name = e.is(ir::Op::kLoad) ? *e.operand(0) : e;
  auto binding = Lookup(name, true);
  if (!binding.ok()) return binding.status();
  auto type = ElemOf(e);
  if (!type.ok()) return type.status();
  auto indices = Indices(e, binding->rank);
  if (!indices.ok()) return indices.status();
  Expr expr;
  expr.op = ExprOp::kLoad;
  expr.type = *type;
  expr.slot = binding->slot;
  expr.where = &e;
  expr.args = *std::move(indices);
  return expr;
}

absl::StatusOr<int32_t> ProcCompiler::ConfigField(const ir::Node& e) {
  const int32_t slot = module_.FindConfigSlot(e.def(), e.name());
  if (slot < 0) {
    return NotVerified(
        e, absl::StrCat("no configuration field '", e.name(), "' here"));
  }
  return slot;
}

absl::StatusOr<std::vector<Expr>> ProcCompiler::Dims(const ir::Type& type,
                                                     const ir::Node& decl) {
  std::vector<Expr> dims;
  for (const ir::Dim& dim : type.dims()) {
    if (dim.is_constant()) {
      Expr expr;
      expr.op = ExprOp::kIntConst;
      expr.value = dim.value;
      expr.where = &decl;
      dims.push_back(std::move(expr));
      continue;
    }
    auto expr = Control(*dim.expr);
    if (!expr.ok()) return expr.status();
    dims.push_back(*std::move(expr));
  }
  return dims;
}

absl::StatusOr<WindowRef> ProcCompiler::Window(const ir::Node& e, int& rank) {
  if (e.is(ir::Op::kDescriptor)) return Descriptor(e, rank);
  WindowRef ref;
  ref.where = &e;
  const bool is_window = e.is(ir::Op::kWindow);
  auto base = Lookup(is_window ? *e.operand(0) : e, true);
  if (!base.ok()) return base.status();
  ref.base = base->slot;
  rank = base->rank;
  if (!is_window) return ref;
  absl::Span<ir::Node* const> selectors = ir::WindowView::SelectorsOf(e);
  if (selectors.size() != static_cast<size_t>(rank)) {
    return NotVerified(e, absl::StrCat("the window has ", selectors.size(),
                                       " selectors for rank ", rank));
  }
  rank = 0;
  for (const ir::Node* operand : selectors) {
    Selector selector;
    selector.where = operand;
    selector.point = ir::WindowView::KeptBy(*operand) == 0;
    auto lo = Control(selector.point ? *operand : *operand->operand(0));
    if (!lo.ok()) return lo.status();
    selector.lo = *std::move(lo);
    if (!selector.point) {
      auto hi = Control(*operand->operand(1));
      if (!hi.ok()) return hi.status();
      selector.hi = *std::move(hi);
      if (operand->is(ir::Op::kSplit)) {
        selector.row = operand->operand(2)->int_value();
        ++rank;
      } else {
        selector.step = ir::IntervalView::StepOf(*operand);
      }
      ++rank;
    }
    ref.selectors.push_back(std::move(selector));
  }
  if (ir::WindowView::PermutationOf(e) != nullptr) {
    ref.order = ir::WindowView::OrderOf(e);
  }
  return ref;
}

}  // namespace loop
}  // namespace tessel
