// Control expressions and conditions as isl functions and sets, in a frame:
// the loops around a statement, the indices of a view, and at a call the
// arguments that the callee's parameters stand for.
#include "libs/ir/views.h"
#include "libs/poly/model.h"
#include "libs/poly/model_nodes.h"
#include "libs/support/source.h"

namespace tessel::poly {
namespace {

using ir::Node;
using ir::Op;

}  // namespace

const Node* ProcModel::Argument(const Node& param, const Frame& frame) const {
  if (frame.call == nullptr || !param.is(Op::kParam) ||
      param.parent() != frame.call->def()) {
    return nullptr;
  }
  // A callee's parameters come first among its operands, in the order of
  // the call's arguments.
  size_t position = param.position();
  return position < frame.call->num_operands() ? frame.call->operand(position)
                                               : nullptr;
}

const Node* ProcModel::WrittenValue(const Node& read) const {
  auto it = config_.find(&read);
  return it == config_.end() ? nullptr : it->second.written;
}

isl::id ProcModel::UnknownValue(const Node& read) const {
  auto it = config_.find(&read);
  const Node& first = it != config_.end() && it->second.unknown != nullptr
                          ? *it->second.unknown
                          : read;
  auto found = unknowns_.find(&first);
  if (found != unknowns_.end()) return found->second;
  const ir::Type& type = first.type();
  isl::id id = NewParam(Text(first), &first,
                        type.is_control(ControlType::kSize)   ? Range::kPositive
                        : type.is_control(ControlType::kBool) ? Range::kBool
                                                              : Range::kAny);
  unknowns_.emplace(&first, id);
  return id;
}

absl::StatusOr<isl::pw_aff> ProcModel::EvalName(const Node& ref,
                                                const Frame& frame) const {
  const Node* def = ref.def();
  if (def == nullptr) return NotAffine(ref);
  if (def->is(Op::kFor) || def->is(Op::kCoord)) {
    std::vector<const Node*> dims = DimsAround(*frame.stmt);
    for (size_t i = 0; i < dims.size(); ++i) {
      if (dims[i] != def) continue;
      return DimOn(FrameSpace(frame), static_cast<unsigned>(i));
    }
    if (frame.callee_loops != nullptr) {
      const std::vector<const Node*>& loops = *frame.callee_loops;
      for (size_t i = 0; i < loops.size(); ++i) {
        if (loops[i] != def) continue;
        return DimOn(FrameSpace(frame), static_cast<unsigned>(dims.size() + i));
      }
    }
  } else if (const Node* arg = Argument(*def, frame)) {
    return Eval(*arg, Frame{frame.stmt, frame.extra});
  } else if (IsControlParam(*def)) {
    return isl::pw_aff::param_on_domain(Universe(frame),
                                        isl::id(ctx_, def->name()));
  }
  return NotAffine(ref);
}

absl::StatusOr<isl::pw_aff> ProcModel::EvalStride(const Node& stride,
                                                  const Frame& frame) const {
  // The dimension of the tensor behind the view that the stride steps
  // along, and how many of its elements a step is: a window's dimension
  // maps to the dimension its selector selects in, scaled (its step).
  const Node* at = stride.operand(0);
  int64_t dim = stride.operand(1)->int_value();
  int64_t scale = 1;
  Frame where = frame;
  while (true) {
    if (at->is(Op::kRef) && at->def() != nullptr) {
      if (const Node* arg = Argument(*at->def(), where)) {
        at = arg;
        where.call = nullptr;
        continue;
      }
    }
    at = &Unalias(*at);
    if (!at->is(Op::kWindow)) break;
    const std::vector<ir::WindowView::DimMap> maps =
        ir::WindowView::DimMapsOf(*at);
    if (dim < 0 || dim >= static_cast<int64_t>(maps.size())) {
      return NotAffine(stride);
    }
    scale *= maps[dim].scale;
    dim = maps[dim].selector;
    at = at->operand(0);
  }
  auto root = EvalRootStride(stride, *at, dim, frame);
  if (!root.ok() || scale == 1) return root;
  return root->scale(isl::val(ctx_, scale));
}

absl::StatusOr<isl::pw_aff> ProcModel::EvalRootStride(const Node& stride,
                                                      const Node& root,
                                                      int64_t dim,
                                                      const Frame& frame) const {
  const Node* at = &root;
  if (!IsDataRoot(*at)) return NotAffine(stride);
  const ir::Type& type = at->declared_type();
  if (type.kind() != ir::TypeKind::kWindow) {
    // Row-major: the product of the later dimensions, when that is affine
    // (a literal times at most one symbolic dimension).
    int64_t product = 1;
    const Node* symbolic = nullptr;
    int symbolic_count = 0;
    bool overflow = false;
    for (size_t k = dim + 1; k < type.dims().size(); ++k) {
      const ir::Dim& extent = type.dims()[k];
      if (extent.is_constant()) {
        overflow |= __builtin_mul_overflow(product, extent.value, &product);
      } else {
        symbolic = extent.expr;
        ++symbolic_count;
      }
    }
    if (!overflow && symbolic_count == 0) {
      return isl::pw_aff(
          isl::aff::zero_on_domain(FrameSpace(frame)).add_constant(product));
    }
    if (!overflow && symbolic_count == 1) {
      auto extent = Eval(*symbolic, Frame{frame.stmt, frame.extra});
      if (!extent.ok()) return extent;
      return extent->scale(isl::val(ctx_, product));
    }
  }
  // Unknown: one parameter per dimension of the tensor.
  auto key = std::make_pair(at, dim);
  auto it = strides_.find(key);
  if (it == strides_.end()) {
    isl::id id = NewParam(absl::StrCat("(stride ", at->name(), " ", dim, ")"),
                          at, Range::kAny);
    it = strides_.emplace(key, id).first;
  }
  return isl::pw_aff::param_on_domain(Universe(frame), it->second);
}

absl::StatusOr<isl::pw_aff> ProcModel::Eval(const Node& expr,
                                            const Frame& frame) const {
  auto operand = [&](size_t i) { return Eval(*expr.operand(i), frame); };
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) return NotAffine(expr);
      return isl::pw_aff(isl::aff::zero_on_domain(FrameSpace(frame))
                             .add_constant(expr.int_value()));
    case Op::kRef:
      return EvalName(expr, frame);
    case Op::kStride:
      return EvalStride(expr, frame);
    case Op::kReadConfig:
      if (const Node* written = WrittenValue(expr)) {
        return Eval(*written, Frame{frame.stmt, frame.extra});
      }
      return isl::pw_aff::param_on_domain(Universe(frame), UnknownValue(expr));
    case Op::kAdd:
    case Op::kSub:
    case Op::kMul:
    case Op::kMin:
    case Op::kMax: {
      auto a = operand(0);
      if (!a.ok()) return a;
      auto b = operand(1);
      if (!b.ok()) return b;
      switch (expr.op()) {
        case Op::kAdd:
          return a->add(*b);
        case Op::kSub:
          return a->sub(*b);
        case Op::kMin:
          return a->min(*b);
        case Op::kMax:
          return a->max(*b);
        default:
          if (!isl_pw_aff_is_cst(a->get()) && !isl_pw_aff_is_cst(b->get())) {
            return NotAffine(expr);
          }
          return a->mul(*b);
      }
    }
    case Op::kNeg: {
      auto a = operand(0);
      if (!a.ok()) return a;
      return a->neg();
    }
    case Op::kDiv:
    case Op::kFloorMod: {
      const Node& divisor = *expr.operand(1);
      if (!divisor.is(Op::kConst) || divisor.is_float_literal() ||
          divisor.int_value() <= 0) {
        return NotAffine(expr);
      }
      auto a = operand(0);
      if (!a.ok()) return a;
      if (expr.is(Op::kFloorMod)) return a->mod(divisor.int_value());
      return a->scale_down(divisor.int_value()).floor();
    }
    default:
      return NotAffine(expr);
  }
}

absl::StatusOr<isl::set> ProcModel::EvalCondition(const Node& cond,
                                                  const Frame& frame) const {
  switch (cond.op()) {
    case Op::kAnd:
    case Op::kOr: {
      auto a = EvalCondition(*cond.operand(0), frame);
      if (!a.ok()) return a;
      auto b = EvalCondition(*cond.operand(1), frame);
      if (!b.ok()) return b;
      return cond.is(Op::kAnd) ? a->intersect(*b) : a->unite(*b);
    }
    case Op::kNot: {
      auto a = EvalCondition(*cond.operand(0), frame);
      if (!a.ok()) return a;
      return Universe(frame).subtract(*a);
    }
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe:
    case Op::kEq:
    case Op::kNe: {
      auto a = Eval(*cond.operand(0), frame);
      if (!a.ok()) return a.status();
      auto b = Eval(*cond.operand(1), frame);
      if (!b.ok()) return b.status();
      switch (cond.op()) {
        case Op::kLt:
          return a->lt_set(*b);
        case Op::kLe:
          return a->le_set(*b);
        case Op::kGt:
          return a->gt_set(*b);
        case Op::kGe:
          return a->ge_set(*b);
        case Op::kEq:
          return a->eq_set(*b);
        default:
          return Universe(frame).subtract(a->eq_set(*b));
      }
    }
    case Op::kRef: {
      // A bool: a parameter that is 1 when true.
      const Node* def = cond.def();
      if (def == nullptr) break;
      if (const Node* arg = Argument(*def, frame)) {
        return EvalCondition(*arg, Frame{frame.stmt, frame.extra});
      }
      if (!def->is(Op::kParam) || def->param_kind() != ir::ParamKind::kBool) {
        break;
      }
      auto value = EvalName(cond, frame);
      if (!value.ok()) return value.status();
      return value->eq_set(ConstantOn(*value, 1));
    }
    case Op::kReadConfig: {
      if (const Node* written = WrittenValue(cond)) {
        return EvalCondition(*written, Frame{frame.stmt, frame.extra});
      }
      isl::pw_aff value =
          isl::pw_aff::param_on_domain(Universe(frame), UnknownValue(cond));
      return value.eq_set(ConstantOn(value, 1));
    }
    default:
      break;
  }
  return ErrorAt(cond.loc(),
                 absl::StrCat("'", Text(cond), "' is not an affine condition"));
}

}  // namespace tessel::poly
