// Control expressions (formats/tir/README.md, "Expressions"): quasi-affine
// integer expressions and conditions over loop variables and control
// parameters, never over data. Each one is typed, checked and translated
// to isl notation in one walk. Strides and configuration reads are values
// the verifier cannot know; they become isl parameters of their own.
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/ir/verify/common.h"
#include "libs/ir/verify/proc.h"
#include "libs/support/source.h"

namespace tessel::ir {
namespace {

ControlValue Int(std::string text, std::vector<int> params = {}) {
  return ControlValue{false, Affine{std::move(text), std::move(params)}};
}

ControlValue Condition(std::string text, std::vector<int> params = {}) {
  return ControlValue{true, Affine{std::move(text), std::move(params)}};
}

std::string LiteralText(int64_t value) {
  return value < 0 ? absl::StrCat("(", value, ")") : absl::StrCat(value);
}

std::vector<int> Params(const Affine& a, const Affine& b) {
  std::vector<int> params = a.params;
  MergeParams(params, b.params);
  return params;
}

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

}  // namespace

absl::StatusOr<ControlValue> ProcVerifier::Control(Node& expr,
                                                   const Substitution* subst) {
  switch (expr.op()) {
    case Op::kConst:
      if (expr.is_float_literal()) {
        return ErrorAt(expr.loc(),
                       absl::StrCat("'", Text(expr),
                                    "' is a float, but control expressions "
                                    "are integers and conditions"));
      }
      expr.set_type(IndexType());
      return Int(LiteralText(expr.int_value()));
    case Op::kRef:
      return ControlName(expr, subst);
    case Op::kVar:
      return ErrorAt(expr.loc(),
                     absl::StrCat("unbound name '", Text(expr), "'"));
    default:
      return ControlOperation(expr, subst);
  }
}

absl::StatusOr<Affine> ProcVerifier::ControlInt(Node& expr,
                                                const Substitution* subst) {
  auto value = Control(expr, subst);
  if (!value.ok()) return value.status();
  if (value->is_condition) {
    return ErrorAt(expr.loc(),
                   "expected an integer control expression, "
                   "found a condition");
  }
  return std::move(value->affine);
}

absl::StatusOr<Affine> ProcVerifier::ControlCondition(
    Node& expr, const Substitution* subst) {
  auto value = Control(expr, subst);
  if (!value.ok()) return value.status();
  if (!value->is_condition) {
    return ErrorAt(expr.loc(),
                   "expected a condition, found an integer expression");
  }
  return std::move(value->affine);
}

absl::StatusOr<ControlValue> ProcVerifier::ControlName(
    Node& ref, const Substitution* subst) {
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
  std::vector<int> params;
  if (bound->param >= 0) params.push_back(bound->param);
  if (bound->control == ControlType::kBool) {
    return Condition(absl::StrCat("(", bound->isl, " = 1)"), std::move(params));
  }
  return Int(bound->isl, std::move(params));
}

absl::StatusOr<ControlValue> ProcVerifier::ControlOperation(
    Node& expr, const Substitution* subst) {
  // Integer operands.
  auto operands = [&]() -> absl::StatusOr<std::vector<Affine>> {
    std::vector<Affine> values;
    for (Node* operand : expr.operands()) {
      auto value = ControlInt(*operand, subst);
      if (!value.ok()) return value.status();
      values.push_back(*std::move(value));
    }
    return values;
  };
  absl::string_view head = Spelling(expr.op());
  switch (expr.op()) {
    case Op::kAdd:
    case Op::kSub:
    case Op::kMin:
    case Op::kMax:
    case Op::kLt:
    case Op::kLe:
    case Op::kGt:
    case Op::kGe:
    case Op::kEq:
    case Op::kNe: {
      auto values = operands();
      if (!values.ok()) return values.status();
      const Affine& a = (*values)[0];
      const Affine& b = (*values)[1];
      if (expr.is(Op::kMin) || expr.is(Op::kMax)) {
        expr.set_type(IndexType());
        return Int(absl::StrCat(head, "(", a.text, ", ", b.text, ")"),
                   Params(a, b));
      }
      // isl spells equality `=`.
      std::string text = absl::StrCat(
          "(", a.text, " ", expr.is(Op::kEq) ? "=" : head, " ", b.text, ")");
      if (expr.is(Op::kAdd) || expr.is(Op::kSub)) {
        expr.set_type(IndexType());
        return Int(text, Params(a, b));
      }
      expr.set_type(BoolType());
      return Condition(text, Params(a, b));
    }
    case Op::kNeg: {
      auto values = operands();
      if (!values.ok()) return values.status();
      expr.set_type(IndexType());
      return Int(absl::StrCat("(-", (*values)[0].text, ")"),
                 (*values)[0].params);
    }
    case Op::kMul: {
      auto values = operands();
      if (!values.ok()) return values.status();
      // Quasi-affine: one factor is a literal.
      int literal = IsIntLiteral(*expr.operand(0))   ? 0
                    : IsIntLiteral(*expr.operand(1)) ? 1
                                                     : -1;
      if (literal < 0) {
        return ErrorAt(expr.loc(),
                       "control expressions are quasi-affine: '*' needs an "
                       "integer literal on one side");
      }
      expr.set_type(IndexType());
      // isl reads "-2 * i" but not "(-2) * i".
      const Affine& other = (*values)[1 - literal];
      return Int(absl::StrCat("(", expr.operand(literal)->int_value(), " * ",
                              other.text, ")"),
                 other.params);
    }
    case Op::kDiv:
    case Op::kFloorMod: {
      auto values = operands();
      if (!values.ok()) return values.status();
      const Node& divisor = *expr.operand(1);
      if (!IsIntLiteral(divisor) || divisor.int_value() <= 0) {
        return ErrorAt(
            divisor.loc(),
            absl::StrCat("control expressions are quasi-affine: '", head,
                         "' needs a positive integer literal divisor"));
      }
      expr.set_type(IndexType());
      const Affine& dividend = (*values)[0];
      if (expr.is(Op::kDiv)) {
        return Int(absl::StrCat("floor((", dividend.text, ") / ",
                                divisor.int_value(), ")"),
                   dividend.params);
      }
      return Int(
          absl::StrCat("((", dividend.text, ") mod ", divisor.int_value(), ")"),
          dividend.params);
    }
    case Op::kAnd:
    case Op::kOr:
    case Op::kNot: {
      std::vector<Affine> values;
      for (Node* operand : expr.operands()) {
        auto value = ControlCondition(*operand, subst);
        if (!value.ok()) return value.status();
        values.push_back(*std::move(value));
      }
      expr.set_type(BoolType());
      if (expr.is(Op::kNot)) {
        return Condition(absl::StrCat("(not ", values[0].text, ")"),
                         values[0].params);
      }
      return Condition(absl::StrCat("(", values[0].text, " ", head, " ",
                                    values[1].text, ")"),
                       Params(values[0], values[1]));
    }
    case Op::kStride: {
      auto stride = Stride(expr, subst);
      if (!stride.ok()) return stride.status();
      expr.set_type(Type::Control(ControlType::kStride));
      return ControlValue{false, *std::move(stride)};
    }
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

absl::StatusOr<Affine> ProcVerifier::Stride(Node& expr,
                                            const Substitution* subst) {
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
  Root& root = roots_[view->root];
  int root_dim = view->root_dims[dim.int_value()];
  if (root.dense) {
    // Row-major: the product of the later dimensions, when that is affine.
    int64_t product = 1;
    std::vector<const Affine*> symbolic;
    bool overflow = false;
    for (size_t k = root_dim + 1; k < root.extents.size(); ++k) {
      if (auto value = LiteralValue(root.extents[k])) {
        overflow |= *value > std::numeric_limits<int64_t>::max() / product;
        if (!overflow) product *= *value;
      } else {
        symbolic.push_back(&root.extents[k]);
      }
    }
    if (!overflow && symbolic.empty()) return Affine{absl::StrCat(product), {}};
    if (!overflow && symbolic.size() == 1) {
      return Affine{absl::StrCat("(", product, " * ", symbolic[0]->text, ")"),
                    symbolic[0]->params};
    }
  }
  auto [it, added] = root.stride_params.emplace(root_dim, 0);
  if (added) {
    std::string isl = domain_.FreshIslName();
    it->second = domain_.AddParam(
        isl, absl::StrCat("(stride ", root.name, " ", root_dim, ")"), "");
  }
  return Affine{domain_.ParamName(it->second), {it->second}};
}

absl::StatusOr<ControlValue> ProcVerifier::ReadControlConfig(Node& expr) {
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
  expr.set_type(type);
  // Until the field is written, every read sees one unknown value.
  if (const ControlValue* known = KnownConfig(*field)) return *known;
  std::string isl = domain_.FreshIslName();
  std::string constraint;
  if (type.is_control(ControlType::kSize)) {
    constraint = absl::StrCat(isl, " > 0");
  }
  if (type.is_control(ControlType::kBool)) {
    constraint = absl::StrCat("0 <= ", isl, " <= 1");
  }
  int param = domain_.AddParam(isl, Text(expr), constraint);
  ControlValue value = type.is_control(ControlType::kBool)
                           ? Condition(absl::StrCat("(", isl, " = 1)"), {param})
                           : Int(isl, {param});
  RememberConfig(*field, value);
  return value;
}

}  // namespace tessel::ir
