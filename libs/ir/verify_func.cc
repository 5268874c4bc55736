#include "libs/ir/verify_func.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "libs/ir/verify_access.h"
#include "libs/ir/verify_common.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {
namespace {

bool IsDeBruijn(const Sexpr& term) {
  if (!term.is_symbol() || term.text().size() < 2 || term.text()[0] != '%') {
    return false;
  }
  int64_t k;
  return absl::SimpleAtoi(term.text().substr(1), &k);
}

std::string IndexName(size_t level) { return absl::StrCat("b", level); }

// Checks the declared types of a function's parameters or results.
absl::Status CheckDeclarations(const std::vector<NamedType>& decls,
                               std::vector<std::string>& seen) {
  for (const NamedType& decl : decls) {
    const Sexpr& name = (*decl.decl)[0];
    if (auto status = CheckBindableName(name, "value"); !status.ok()) {
      return status;
    }
    for (const std::string& other : seen) {
      if (other == decl.name) {
        return ErrorAt(name.loc(),
                       absl::StrCat("'", decl.name, "' is declared twice"));
      }
    }
    seen.push_back(decl.name);
    for (const Sexpr& dim : decl.type.dims) {
      if (!dim.is_int()) {
        return ErrorAt(dim.loc(),
                       "a func is fully specialised: its "
                       "dimensions are integer literals");
      }
    }
  }
  return absl::OkStatus();
}

}  // namespace

FuncVerifier::FuncVerifier(const Function& func, poly::Context& ctx)
    : func_(func), ctx_(ctx) {}

absl::Status FuncVerifier::Verify() {
  std::vector<std::string> seen;
  if (auto status = CheckDeclarations(func_.params, seen); !status.ok()) {
    return status;
  }
  if (auto status = CheckDeclarations(func_.results, seen); !status.ok()) {
    return status;
  }
  // One result is the term's value; several are a right-nested tuple.
  TermType expected = TermType::FromData(func_.results.back().type);
  for (size_t i = func_.results.size() - 1; i-- > 0;) {
    expected = TermType::Tuple(TermType::FromData(func_.results[i].type),
                               std::move(expected));
  }
  return Infer(*func_.term, &expected).status();
}

absl::StatusOr<TermType> FuncVerifier::Infer(const Sexpr& term,
                                             const TermType* expected) {
  absl::StatusOr<TermType> type;
  absl::string_view head = term.head();
  if (term.is_int()) {
    type = TermType::Scalar(ScalarType::IntLiteral());
  } else if (term.is_float()) {
    type = TermType::Scalar(ScalarType::FloatLiteral());
  } else if (term.is_symbol()) {
    type = InferVariable(term);
  } else if (head.empty()) {
    return ErrorAt(term.loc(), absl::StrCat("expected a term, found '",
                                            PrintFlat(term), "'"));
  } else if (head == "lam") {
    return ErrorAt(term.loc(),
                   "a lam must be the function of build, ifold or app, "
                   "where the type of its argument is known");
  } else if (head == "app") {
    type = InferApp(term, expected);
  } else if (head == "build") {
    type = InferBuild(term, expected);
  } else if (head == "ifold") {
    type = InferIfold(term, expected);
  } else if (head == "index") {
    type = InferIndex(term);
  } else if (head == "tuple" || head == "fst" || head == "snd") {
    type = InferTuple(term, expected);
  } else if (IsScalarOperation(head)) {
    type = InferScalar(term, expected);
  } else if (IsComparison(head)) {
    return ErrorAt(term.loc(),
                   "a comparison is not a data value; use "
                   "(select COND A B)");
  } else if (IsAccessPatternForm(head)) {
    if (auto status = ExpectOperands(term, AccessPatternArity(head));
        !status.ok()) {
      return status;
    }
    std::vector<TermType> operands;
    for (size_t position : AccessPatternOperands(head)) {
      auto operand = Infer(term[position], nullptr);
      if (!operand.ok()) return operand;
      operands.push_back(*std::move(operand));
    }
    type = InferAccessPattern(term, operands);
  } else if (absl::StrContains(head, '.')) {
    return ErrorAt(term[0].loc(),
                   absl::StrCat("'", head,
                                "': named library calls come with saturate's "
                                "rules and are not supported yet"));
  } else {
    return ErrorAt(term[0].loc(),
                   absl::StrCat("unknown operator '", head, "'"));
  }
  if (!type.ok() || expected == nullptr) return type;
  return Unify(term, *type, *expected);
}

absl::StatusOr<TermType> FuncVerifier::InferVariable(const Sexpr& term) {
  if (IsDeBruijn(term)) {
    auto binder = FindBinder(term);
    if (!binder.ok()) return binder.status();
    if (!(*binder)->value) {
      return ErrorAt(term.loc(), absl::StrCat("'", term.text(),
                                              "' is an index, not a data "
                                              "value; use it in (index A I)"));
    }
    return *(*binder)->value;
  }
  for (const NamedType& param : func_.params) {
    if (param.name == term.text()) return TermType::FromData(param.type);
  }
  return ErrorAt(term.loc(), absl::StrCat("unbound name '", term.text(), "'"));
}

absl::StatusOr<const FuncVerifier::Binder*> FuncVerifier::FindBinder(
    const Sexpr& var) const {
  int64_t k = 0;
  if (!absl::SimpleAtoi(var.text().substr(1), &k) || k < 0 ||
      k >= static_cast<int64_t>(binders_.size())) {
    return ErrorAt(var.loc(), absl::StrCat("'", var.text(), "' is not bound: ",
                                           binders_.size() == 1
                                               ? "one lam encloses"
                                               : absl::StrCat(binders_.size(),
                                                              " lams enclose"),
                                           " it"));
  }
  return &binders_[binders_.size() - 1 - k];
}

absl::StatusOr<TermType> FuncVerifier::InferLam(const Sexpr& lam,
                                                std::vector<Binder> binders,
                                                const TermType* expected) {
  size_t depth = binders_.size();
  binders_.insert(binders_.end(), binders.begin(), binders.end());
  auto type = Infer(lam[1], expected);
  binders_.resize(depth);
  return type;
}

absl::StatusOr<int64_t> FuncVerifier::Length(const Sexpr& length,
                                             absl::string_view of) {
  if (!length.is_int() || length.int_value() <= 0) {
    return ErrorAt(length.loc(), absl::StrCat("the length of ", of,
                                              " must be an integer literal "
                                              "> 0, found '",
                                              PrintFlat(length), "'"));
  }
  return length.int_value();
}

absl::StatusOr<TermType> FuncVerifier::InferApp(const Sexpr& term,
                                                const TermType* expected) {
  if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
  const Sexpr& function = term[1];
  if (!function.is_form("lam") || function.size() != 2) {
    return ErrorAt(function.loc(), "the function of app must be (lam BODY)");
  }
  const Sexpr& arg = term[2];
  Binder binder;
  if (IsIndexExpression(arg)) {
    auto index = IndexExpression(arg);
    if (!index.ok()) return index.status();
    binder.index = *std::move(index);
  }
  if (!binder.index || arg.is_int()) {
    auto value = Infer(arg, nullptr);
    if (!value.ok()) return value.status();
    binder.value = *std::move(value);
  }
  return InferLam(function, {std::move(binder)}, expected);
}

absl::StatusOr<TermType> FuncVerifier::InferBuild(const Sexpr& term,
                                                  const TermType* expected) {
  if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
  auto length = Length(term[1], "build");
  if (!length.ok()) return length.status();
  const Sexpr& function = term[2];
  if (!function.is_form("lam") || function.size() != 2) {
    return ErrorAt(function.loc(),
                   "the function of build must be "
                   "(lam BODY), with the index %0");
  }
  std::optional<TermType> element;
  if (expected != nullptr && expected->is_array() &&
      expected->dims[0] == *length) {
    element = TermType::Array(
        expected->elem,
        std::vector<int64_t>(expected->dims.begin() + 1, expected->dims.end()));
  }
  Binder index;
  index.index = IndexName(binders_.size());
  index.extent = *length;
  auto body =
      InferLam(function, {std::move(index)}, element ? &*element : nullptr);
  if (!body.ok()) return body;
  if (body->is_tuple()) {
    return ErrorAt(function[1].loc(),
                   absl::StrCat("build needs scalar or array elements, "
                                "found ",
                                Describe(*body)));
  }
  std::vector<int64_t> dims = {*length};
  dims.insert(dims.end(), body->dims.begin(), body->dims.end());
  return TermType::Array(body->elem, std::move(dims));
}

absl::StatusOr<TermType> FuncVerifier::InferIfold(const Sexpr& term,
                                                  const TermType* expected) {
  if (auto status = ExpectOperands(term, 3); !status.ok()) return status;
  auto length = Length(term[1], "ifold");
  if (!length.ok()) return length.status();
  auto init = Infer(term[2], expected);
  if (!init.ok()) return init;
  const Sexpr& function = term[3];
  if (!function.is_form("lam") || function.size() != 2 ||
      !function[1].is_form("lam") || function[1].size() != 2) {
    return ErrorAt(function.loc(),
                   "the function of ifold must be (lam (lam BODY)), with "
                   "the index %1 and the accumulator %0");
  }
  Binder index;
  index.index = IndexName(binders_.size());
  index.extent = *length;
  Binder accumulator;
  accumulator.value = *init;
  size_t depth = binders_.size();
  binders_.push_back(std::move(index));
  auto body = InferLam(function[1], {std::move(accumulator)}, &*init);
  binders_.resize(depth);
  return body;
}

absl::StatusOr<TermType> FuncVerifier::InferIndex(const Sexpr& term) {
  if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
  auto array = Infer(term[1], nullptr);
  if (!array.ok()) return array;
  if (!array->is_array()) {
    return ErrorAt(term[1].loc(), absl::StrCat("index needs an array, found ",
                                               Describe(*array)));
  }
  auto index = IndexExpression(term[2]);
  if (!index.ok()) return index.status();
  if (auto status =
          CheckIndexInBounds(term[2], *index, array->dims[0], term[1]);
      !status.ok()) {
    return status;
  }
  return TermType::Array(
      array->elem,
      std::vector<int64_t>(array->dims.begin() + 1, array->dims.end()));
}

absl::StatusOr<TermType> FuncVerifier::InferTuple(const Sexpr& term,
                                                  const TermType* expected) {
  if (term.is_form("tuple")) {
    if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
    bool split = expected != nullptr && expected->is_tuple();
    auto first = Infer(term[1], split ? &expected->parts[0] : nullptr);
    if (!first.ok()) return first;
    auto second = Infer(term[2], split ? &expected->parts[1] : nullptr);
    if (!second.ok()) return second;
    return TermType::Tuple(*std::move(first), *std::move(second));
  }
  if (auto status = ExpectOperands(term, 1); !status.ok()) return status;
  auto pair = Infer(term[1], nullptr);
  if (!pair.ok()) return pair;
  if (!pair->is_tuple()) {
    return ErrorAt(term[1].loc(),
                   absl::StrCat("'", term.head(), "' needs a tuple, found ",
                                Describe(*pair)));
  }
  return pair->parts[term.is_form("fst") ? 0 : 1];
}

absl::StatusOr<TermType> FuncVerifier::InferScalar(const Sexpr& term,
                                                   const TermType* expected) {
  auto operand = [this](const Sexpr& e, std::optional<ElemType> elem) {
    return InferScalarOperand(e, elem, "scalar operations");
  };
  std::optional<ElemType> elem;
  if (expected != nullptr && expected->is_scalar() &&
      expected->elem.is_elem()) {
    elem = expected->elem.elem;
  }
  auto type = InferScalarOperation(
      term, elem, operand,
      [this](const Sexpr& cond) { return CheckCondition(cond); });
  if (!type.ok()) return type.status();
  return TermType::Scalar(*type);
}

absl::Status FuncVerifier::CheckCondition(const Sexpr& cond) {
  if (cond.is_form("and") || cond.is_form("or") || cond.is_form("not")) {
    size_t count = cond.is_form("not") ? 1 : 2;
    if (auto status = ExpectOperands(cond, count); !status.ok()) return status;
    for (size_t i = 1; i <= count; ++i) {
      if (auto status = CheckCondition(cond[i]); !status.ok()) return status;
    }
    return absl::OkStatus();
  }
  if (!IsComparison(cond.head())) {
    return ErrorAt(cond.loc(), absl::StrCat("expected a comparison, found '",
                                            PrintFlat(cond), "'"));
  }
  if (auto status = ExpectOperands(cond, 2); !status.ok()) return status;
  if (IsIndexExpression(cond[1]) && IsIndexExpression(cond[2])) {
    return absl::OkStatus();  // a comparison of indices
  }
  return CheckDataComparison(
      cond, [this](const Sexpr& e, std::optional<ElemType> elem) {
        return InferScalarOperand(e, elem, "comparisons");
      });
}

absl::StatusOr<ScalarType> FuncVerifier::InferScalarOperand(
    const Sexpr& operand, std::optional<ElemType> elem,
    absl::string_view what) {
  TermType want =
      TermType::Scalar(ScalarType::Of(elem.value_or(ElemType::kF32)));
  auto type = Infer(operand, elem ? &want : nullptr);
  if (!type.ok()) return type.status();
  if (!type->is_scalar()) {
    return ErrorAt(operand.loc(), absl::StrCat(what, " need scalars, found ",
                                               Describe(*type)));
  }
  return type->elem;
}

bool FuncVerifier::IsIndexExpression(const Sexpr& term) const {
  if (term.is_int()) return true;
  if (IsDeBruijn(term)) {
    auto binder = FindBinder(term);
    return binder.ok() && (*binder)->index.has_value();
  }
  if (term.is_form("+") || term.is_form("-") || term.is_form("*")) {
    return term.size() == 3 && IsIndexExpression(term[1]) &&
           IsIndexExpression(term[2]);
  }
  return false;
}

absl::StatusOr<std::string> FuncVerifier::IndexExpression(
    const Sexpr& term) const {
  if (term.is_int()) {
    return term.int_value() < 0 ? absl::StrCat("(", term.int_value(), ")")
                                : absl::StrCat(term.int_value());
  }
  if (IsDeBruijn(term)) {
    auto binder = FindBinder(term);
    if (!binder.ok()) return binder.status();
    if (!(*binder)->index) {
      return ErrorAt(term.loc(), absl::StrCat("'", term.text(), "' is ",
                                              Describe(*(*binder)->value),
                                              ", not an index"));
    }
    return *(*binder)->index;
  }
  absl::string_view head = term.head();
  if (head == "+" || head == "-" || head == "*") {
    if (auto status = ExpectOperands(term, 2); !status.ok()) return status;
    if (head == "*" && !term[1].is_int() && !term[2].is_int()) {
      return ErrorAt(term.loc(),
                     "indices are affine: '*' needs an integer "
                     "literal on one side");
    }
    auto a = IndexExpression(term[1]);
    if (!a.ok()) return a;
    auto b = IndexExpression(term[2]);
    if (!b.ok()) return b;
    if (head == "*") {
      // isl reads "-2 * i" but not "(-2) * i".
      bool first = term[1].is_int();
      return absl::StrCat("(", term[first ? 1 : 2].int_value(), " * ",
                          first ? *b : *a, ")");
    }
    return absl::StrCat("(", *a, " ", head, " ", *b, ")");
  }
  return ErrorAt(term.loc(), absl::StrCat("expected an index (an integer "
                                          "literal, a build or ifold index, "
                                          "or +, - and * of them), found '",
                                          PrintFlat(term), "'"));
}

absl::Status FuncVerifier::CheckIndexInBounds(const Sexpr& index,
                                              const std::string& isl,
                                              int64_t extent,
                                              const Sexpr& array) {
  // The domain: the indices of the enclosing builds and ifolds, named as De
  // Bruijn variables seen from here.
  PolyDomain domain(ctx_);
  size_t depth = binders_.size();
  for (size_t level = 0; level < depth; ++level) {
    if (binders_[level].extent == 0) continue;
    domain.AddDim(IndexName(level), absl::StrCat("%", depth - 1 - level));
    domain.Assume(Affine{absl::StrCat("(0 <= ", IndexName(level), " < ",
                                      binders_[level].extent, ")"),
                         {}});
  }
  auto violation = domain.FindViolation(
      {Affine{isl, {}}, Affine{absl::StrCat(extent), {}}}, "0 <= x0 < x1");
  if (!violation.ok()) return violation.status();
  if (!violation->has_value()) return absl::OkStatus();
  const PolyDomain::Violation& at = **violation;
  std::string what = array.is_symbol()
                         ? absl::StrCat("the index of '", array.text(), "'")
                         : std::string("the index");
  bool below = !at.values[0].empty() && at.values[0][0] == '-';
  return ErrorAt(
      index.loc(),
      absl::StrCat(
          what, below ? " can be " : " can reach ", at.values[0],
          below ? ", below 0" : absl::StrCat(", outside its extent ", extent),
          AtPoint(at.at)));
}

}  // namespace tessel
