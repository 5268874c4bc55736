// Control expressions (formats/tir/README.md, "Expressions"): quasi-affine
// integer expressions and conditions over loop variables and control
// parameters, never over data. Each one is checked and translated to isl
// notation in one walk. Strides and configuration reads are values the
// verifier cannot know; they become isl parameters of their own.
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/ir/verify_common.h"
#include "libs/ir/verify_proc.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
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

// isl's spelling of a comparison.
absl::string_view IslComparison(absl::string_view head) {
  return head == "==" ? "=" : head;
}

absl::Status DataInControl(const Sexpr& at, absl::string_view name) {
  return ErrorAt(at.loc(), absl::StrCat("'", name,
                                        "' is data, but control expressions "
                                        "cannot depend on data"));
}

}  // namespace

absl::StatusOr<ControlValue> ProcVerifier::Control(const Sexpr& expr,
                                                   const Substitution* subst) {
  if (expr.is_int()) return Int(LiteralText(expr.int_value()));
  if (expr.is_symbol()) return ControlName(expr, subst);
  if (expr.is_list() && !expr.head().empty()) {
    return ControlOperation(expr, subst);
  }
  if (expr.is_float()) {
    return ErrorAt(expr.loc(),
                   absl::StrCat("'", AtomText(expr),
                                "' is a float, but control expressions are "
                                "integers and conditions"));
  }
  return ErrorAt(expr.loc(), absl::StrCat("expected a control expression, "
                                          "found '",
                                          PrintFlat(expr), "'"));
}

absl::StatusOr<Affine> ProcVerifier::ControlInt(const Sexpr& expr,
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
    const Sexpr& expr, const Substitution* subst) {
  auto value = Control(expr, subst);
  if (!value.ok()) return value.status();
  if (!value->is_condition) {
    return ErrorAt(expr.loc(),
                   "expected a condition, found an integer expression");
  }
  return std::move(value->affine);
}

absl::StatusOr<ControlValue> ProcVerifier::ControlName(
    const Sexpr& name, const Substitution* subst) {
  if (subst != nullptr) {
    // A callee's dimension or assertion: its names are its parameters.
    auto it = subst->find(name.text());
    if (it != subst->end() && it->second.control) return *it->second.control;
    if (it != subst->end()) return DataInControl(name, name.text());
    return ErrorAt(name.loc(),
                   absl::StrCat("unbound name '", name.text(), "'"));
  }
  const LoopName* bound = Find(name.text());
  if (bound == nullptr) {
    return ErrorAt(name.loc(),
                   absl::StrCat("unbound name '", name.text(), "'"));
  }
  if (bound->is_data) return DataInControl(name, name.text());
  std::vector<int> params;
  if (bound->param >= 0) params.push_back(bound->param);
  if (bound->control == ControlType::kBool) {
    return Condition(absl::StrCat("(", bound->isl, " = 1)"), std::move(params));
  }
  return Int(bound->isl, std::move(params));
}

absl::StatusOr<ControlValue> ProcVerifier::ControlOperation(
    const Sexpr& expr, const Substitution* subst) {
  absl::string_view head = expr.head();
  // Integer operands.
  auto operands = [&](size_t count) -> absl::StatusOr<std::vector<Affine>> {
    if (auto status = ExpectOperands(expr, count); !status.ok()) return status;
    std::vector<Affine> values;
    for (size_t i = 1; i <= count; ++i) {
      auto value = ControlInt(expr[i], subst);
      if (!value.ok()) return value.status();
      values.push_back(*std::move(value));
    }
    return values;
  };
  if (head == "+" || head == "-" || head == "min" || head == "max" ||
      IsComparison(head)) {
    auto values = operands(2);
    if (!values.ok()) return values.status();
    const Affine& a = (*values)[0];
    const Affine& b = (*values)[1];
    if (head == "min" || head == "max") {
      return Int(absl::StrCat(head, "(", a.text, ", ", b.text, ")"),
                 Params(a, b));
    }
    std::string text =
        absl::StrCat("(", a.text, " ", IslComparison(head), " ", b.text, ")");
    if (head == "+" || head == "-") return Int(text, Params(a, b));
    return Condition(text, Params(a, b));
  }
  if (head == "neg") {
    auto values = operands(1);
    if (!values.ok()) return values.status();
    return Int(absl::StrCat("(-", (*values)[0].text, ")"), (*values)[0].params);
  }
  if (head == "*") {
    auto values = operands(2);
    if (!values.ok()) return values.status();
    // Quasi-affine: one factor is a literal.
    int literal = expr[1].is_int() ? 0 : expr[2].is_int() ? 1 : -1;
    if (literal < 0) {
      return ErrorAt(expr.loc(),
                     "control expressions are quasi-affine: '*' needs an "
                     "integer literal on one side");
    }
    // isl reads "-2 * i" but not "(-2) * i".
    const Affine& other = (*values)[1 - literal];
    return Int(absl::StrCat("(", expr[1 + literal].int_value(), " * ",
                            other.text, ")"),
               other.params);
  }
  if (head == "/" || head == "%") {
    auto values = operands(2);
    if (!values.ok()) return values.status();
    if (!expr[2].is_int() || expr[2].int_value() <= 0) {
      return ErrorAt(
          expr[2].loc(),
          absl::StrCat("control expressions are quasi-affine: '", head,
                       "' needs a positive integer literal "
                       "divisor"));
    }
    const Affine& dividend = (*values)[0];
    if (head == "/") {
      return Int(absl::StrCat("floor((", dividend.text, ") / ",
                              expr[2].int_value(), ")"),
                 dividend.params);
    }
    return Int(
        absl::StrCat("((", dividend.text, ") mod ", expr[2].int_value(), ")"),
        dividend.params);
  }
  if (head == "and" || head == "or" || head == "not") {
    size_t count = head == "not" ? 1 : 2;
    if (auto status = ExpectOperands(expr, count); !status.ok()) return status;
    std::vector<Affine> values;
    for (size_t i = 1; i <= count; ++i) {
      auto value = ControlCondition(expr[i], subst);
      if (!value.ok()) return value.status();
      values.push_back(*std::move(value));
    }
    if (head == "not") {
      return Condition(absl::StrCat("(not ", values[0].text, ")"),
                       values[0].params);
    }
    return Condition(
        absl::StrCat("(", values[0].text, " ", head, " ", values[1].text, ")"),
        Params(values[0], values[1]));
  }
  if (head == "stride") {
    auto stride = Stride(expr, subst);
    if (!stride.ok()) return stride.status();
    return ControlValue{false, *std::move(stride)};
  }
  if (head == "read-config") return ReadControlConfig(expr);
  if (head == "select" || head == "cast") {
    return ErrorAt(expr.loc(), absl::StrCat("'", head,
                                            "' computes data, but control "
                                            "expressions cannot depend on "
                                            "data"));
  }
  const LoopName* bound = subst == nullptr ? Find(head) : nullptr;
  if (bound != nullptr && bound->is_data) return DataInControl(expr[0], head);
  return ErrorAt(expr[0].loc(), absl::StrCat("unknown operator '", head, "'"));
}

absl::StatusOr<Affine> ProcVerifier::Stride(const Sexpr& expr,
                                            const Substitution* subst) {
  if (auto status = ExpectOperands(expr, 2); !status.ok()) return status;
  const Sexpr& name = expr[1];
  const View* view = nullptr;
  if (name.is_symbol() && subst != nullptr) {
    auto it = subst->find(name.text());
    if (it != subst->end()) view = it->second.data;
  } else if (name.is_symbol()) {
    const LoopName* bound = Find(name.text());
    if (bound != nullptr && bound->is_data) view = &bound->view;
  }
  if (view == nullptr) {
    return ErrorAt(name.loc(), absl::StrCat("'stride' needs the name of a "
                                            "tensor or window, found '",
                                            PrintFlat(name), "'"));
  }
  if (view->type.rank() == 0) {
    return ErrorAt(name.loc(), absl::StrCat("'", name.text(),
                                            "' is a scalar and has no "
                                            "strides"));
  }
  const Sexpr& dim = expr[2];
  if (!dim.is_int() || dim.int_value() < 0 ||
      dim.int_value() >= view->type.rank()) {
    return ErrorAt(
        dim.loc(),
        absl::StrCat("expected a dimension of '", name.text(), "' from 0 to ",
                     view->type.rank() - 1, ", found '", PrintFlat(dim), "'"));
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

absl::StatusOr<ControlValue> ProcVerifier::ReadControlConfig(
    const Sexpr& expr) {
  if (auto status = ExpectOperands(expr, 2); !status.ok()) return status;
  auto field = FindConfigField(expr);
  if (!field.ok()) return field.status();
  std::optional<ControlType> type = ParseControlType((*field)->type->text());
  if (!type) {
    return ErrorAt(
        expr.loc(),
        absl::StrCat("field '", (*field)->name, "' of '", expr[1].text(),
                     "' is data (", (*field)->type->text(),
                     "), but control expressions cannot depend on "
                     "data"));
  }
  // Until the field is written, every read sees one unknown value.
  if (const ControlValue* known = KnownConfig(expr)) return *known;
  std::string isl = domain_.FreshIslName();
  std::string constraint;
  if (*type == ControlType::kSize) constraint = absl::StrCat(isl, " > 0");
  if (*type == ControlType::kBool) {
    constraint = absl::StrCat("0 <= ", isl, " <= 1");
  }
  int param = domain_.AddParam(isl, PrintFlat(expr), constraint);
  ControlValue value = *type == ControlType::kBool
                           ? Condition(absl::StrCat("(", isl, " = 1)"), {param})
                           : Int(isl, {param});
  RememberConfig(expr, value);
  return value;
}

}  // namespace tessel
