// Control expressions (formats/tir/README.md, "Expressions"): quasi-affine
// integer expressions and conditions over loop variables and control
// parameters, never over data. Each one is typed and checked here; the
// polyhedral model (libs/poly/model.h) translates it for isl, told by
// ReadControlConfig what each configuration read sees.
#include "absl/strings/str_cat.h"
#include "libs/ir/op.h"
#include "libs/verify/common.h"
#include "libs/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

bool IsIntLiteral(const Node& node) {
  return node.is(Op::kConst) && !node.is_float_literal();
}

absl::Status DataInControl(const Node& at, const std::string& name) {
  return ErrorAt(at.loc(), absl::StrCat("'", name,
                                        "' is data, but control expressions "
                                        "cannot depend on data"));
}

Type IndexType() { return Type::Control(ControlType::kIndex); }
Type BoolType() { return Type::Control(ControlType::kBool); }

bool IsCondition(const Type& type) {
  return type.is_control(ControlType::kBool);
}

// Gives `expr` the type `type`, and returns it.
Type Typed(Node& expr, Type type) {
  expr.set_type(type);
  return type;
}

}  // namespace

absl::StatusOr<Type> ProcVerifier::Control(Node& expr,
                                           const Substitution* subst) {
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) {
        return ErrorAt(expr.loc(),
                       absl::StrCat("'", Text(expr),
                                    "' is a float, but control expressions "
                                    "are integers and conditions"));
      }
      return Typed(expr, IndexType());
    case Op::kRef:
      return ControlName(expr, subst);
    case Op::kVar:
      return ErrorAt(expr.loc(),
                     absl::StrCat("unbound name '", Text(expr), "'"));
    default:
      return ControlOperation(expr, subst);
  }
}

absl::StatusOr<Type> ProcVerifier::ControlInt(Node& expr,
                                              const Substitution* subst) {
  auto type = Control(expr, subst);
  if (type.ok() && IsCondition(*type)) {
    return ErrorAt(expr.loc(),
                   "expected an integer control expression, "
                   "found a condition");
  }
  return type;
}

absl::StatusOr<Type> ProcVerifier::ControlCondition(Node& expr,
                                                    const Substitution* subst) {
  auto type = Control(expr, subst);
  if (type.ok() && !IsCondition(*type)) {
    return ErrorAt(expr.loc(),
                   "expected a condition, found an integer expression");
  }
  return type;
}

absl::StatusOr<Type> ProcVerifier::ControlName(Node& ref,
                                               const Substitution* subst) {
  const Node* binder = ref.def();
  ref.set_type(BinderType(*binder));
  if (subst != nullptr) {
    // A callee's dimension or assertion: its names are its parameters.
    auto it = subst->find(binder);
    if (it != subst->end() && it->second.control) return *it->second.control;
    if (it != subst->end()) return DataInControl(ref, ref.name());
    return ErrorAt(ref.loc(), absl::StrCat("unbound name '", ref.name(), "'"));
  }
  const LoopName* bound = Find(binder);
  if (bound == nullptr) {
    return ErrorAt(ref.loc(), absl::StrCat("unbound name '", ref.name(), "'"));
  }
  if (bound->is_data) return DataInControl(ref, ref.name());
  return ref.type();
}

absl::StatusOr<Type> ProcVerifier::ControlOperation(Node& expr,
                                                    const Substitution* subst) {
  // Integer operands.
  auto operands = [&]() -> absl::Status {
    for (Node* operand : expr.operands()) {
      if (auto type = ControlInt(*operand, subst); !type.ok()) {
        return type.status();
      }
    }
    return absl::OkStatus();
  };
  absl::string_view head = Spelling(expr.op());
  if (IsComparison(expr.op())) {
    if (auto status = operands(); !status.ok()) return status;
    return Typed(expr, BoolType());
  }
  switch (expr.op()) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMin:
    case Op::kMax:
    case Op::kNeg:
      if (auto status = operands(); !status.ok()) return status;
      return Typed(expr, IndexType());
    case Op::kMul:
      if (auto status = operands(); !status.ok()) return status;
      // Quasi-affine: one factor is a literal.
      if (!IsIntLiteral(*expr.operand(0)) && !IsIntLiteral(*expr.operand(1))) {
        return ErrorAt(expr.loc(),
                       "control expressions are quasi-affine: '*' needs an "
                       "integer literal on one side");
      }
      return Typed(expr, IndexType());
    case Op::kDiv:
    case Op::kFloorMod: {
      if (auto status = operands(); !status.ok()) return status;
      const Node& divisor = *expr.operand(1);
      if (!IsIntLiteral(divisor) || divisor.int_value() <= 0) {
        return ErrorAt(
            divisor.loc(),
            absl::StrCat("control expressions are quasi-affine: '", head,
                         "' needs a positive integer literal divisor"));
      }
      return Typed(expr, IndexType());
    }
    case Op::kAnd:
    case Op::kOr:
    case Op::kNot:
      for (Node* operand : expr.operands()) {
        if (auto type = ControlCondition(*operand, subst); !type.ok()) {
          return type;
        }
      }
      return Typed(expr, BoolType());
    case Op::kStride:
      if (auto status = CheckStride(expr, subst); !status.ok()) return status;
      return Typed(expr, Type::Control(ControlType::kStride));
    case Op::kReadConfig:
      return ReadControlConfig(expr);
    case Op::kSelect:
    case Op::kCast:
      return ErrorAt(expr.loc(), absl::StrCat("'", head,
                                              "' computes data, but control "
                                              "expressions cannot depend on "
                                              "data"));
    case Op::kLoad: {
      // (NAME I...): an element of data, or a control name misused.
      Node& name = *expr.operand(0);
      const LoopName* bound = subst == nullptr ? Find(name.def()) : nullptr;
      if (bound != nullptr && bound->is_data) {
        return DataInControl(name, name.name());
      }
      return ErrorAt(name.loc(),
                     absl::StrCat("unknown operator '", name.name(), "'"));
    }
    default:
      return ErrorAt(expr.item_loc(0),
                     absl::StrCat("unknown operator '", head, "'"));
  }
}

absl::Status ProcVerifier::CheckStride(Node& expr, const Substitution* subst) {
  Node& name = *expr.operand(0);
  const View* view = nullptr;
  if (name.is(Op::kRef)) {
    name.set_type(BinderType(*name.def()));
    if (subst != nullptr) {
      auto it = subst->find(name.def());
      if (it != subst->end()) view = it->second.data;
    } else {
      const LoopName* bound = Find(name.def());
      if (bound != nullptr && bound->is_data) view = &bound->view;
    }
  }
  if (view == nullptr) {
    return ErrorAt(name.loc(), absl::StrCat("'stride' needs the name of a "
                                            "tensor or window, found '",
                                            Text(name), "'"));
  }
  int rank = view->type.rank();
  if (rank == 0) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.name(),
                                            "' is a scalar and has no "
                                            "strides"));
  }
  Node& dim = *expr.operand(1);
  dim.set_type(IndexType());
  if (!IsIntLiteral(dim) || dim.int_value() < 0 || dim.int_value() >= rank) {
    return ErrorAt(
        dim.loc(),
        absl::StrCat("expected a dimension of '", name.name(), "' from 0 to ",
                     rank - 1, ", found '", Text(dim), "'"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Type> ProcVerifier::ReadControlConfig(Node& expr) {
  auto field = FindConfigField(expr);
  if (!field.ok()) return field.status();
  const Type& type = (*field)->declared_type();
  if (!type.is_control()) {
    return ErrorAt(
        expr.loc(),
        absl::StrCat("field '", expr.name(), "' of '", expr.def()->name(),
                     "' is data (", TypeText(type),
                     "), but control expressions cannot depend on data"));
  }
  if (auto status = CheckNotClobbered(expr, *field); !status.ok()) {
    return status;
  }
  expr.set_type(type);
  // Until the field is written, every read sees the unknown value that the
  // first one saw.
  const ConfigValue* known = KnownConfig(*field);
  ConfigValue value = known != nullptr ? *known : ConfigValue{.unknown = &expr};
  model_.BindConfigRead(expr, value);
  if (known == nullptr) RememberConfig(*field, value);
  return type;
}

}  // namespace tessel::ir
