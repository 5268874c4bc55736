#include "libs/egraph/symbolic.h"

#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "libs/sexpr/printer.h"
#include "libs/sexpr/reader.h"
#include "libs/support/source.h"

namespace tessel::egraph {

namespace {

absl::StatusOr<Sexpr> ReadOne(absl::string_view text) {
  absl::StatusOr<std::vector<Sexpr>> forms =
      ReadSexprs(MakeSource("<input>", std::string(text)));
  if (!forms.ok()) return forms.status();
  if (forms->size() != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("expected one form, got ", forms->size()));
  }
  return std::move(forms->front());
}

}  // namespace

SymbolicLanguage::SymbolicLanguage(OpTable* ops, PayloadTable* payloads,
                                   Numbers numbers)
    : ops_(ops),
      payloads_(payloads),
      numbers_(numbers),
      symbol_op_(ops->Intern("$sym")),
      number_op_(ops->Intern("$num")) {}

PayloadId SymbolicLanguage::Number(const Sexpr& atom) const {
  if (atom.is_float() || numbers_ == Numbers::kFloat) {
    return payloads_->Float(atom.is_float()
                                ? atom.float_value()
                                : static_cast<double>(atom.int_value()));
  }
  return payloads_->Int(atom.int_value());
}

absl::StatusOr<FormReading> SymbolicLanguage::ReadForm(
    const Sexpr& form) const {
  if (form.is_number()) return FormReading{number_op_, Number(form), {}};
  if (form.is_symbol()) {
    if (absl::StartsWith(form.text(), "?")) {
      return ErrorAt(form.loc(),
                     absl::StrCat("variable ", form.text(), " in a term"));
    }
    return FormReading{symbol_op_, payloads_->Symbol(form.text()), {}};
  }
  if (!form.is_list() || form.size() == 0 || !form[0].is_symbol() ||
      absl::StartsWith(form[0].text(), "?")) {
    return ErrorAt(form.loc(), "expected a number, a symbol or (op arg...)");
  }
  FormReading reading{ops_->Intern(form[0].text()), PayloadTable::kNone, {}};
  for (size_t i = 1; i < form.size(); ++i) reading.children.push_back(&form[i]);
  return reading;
}

absl::StatusOr<Term> SymbolicLanguage::TermFromSexpr(const Sexpr& form) const {
  return ReadTerm(form, [this](const Sexpr& f) { return ReadForm(f); });
}

absl::StatusOr<Pattern> SymbolicLanguage::PatternFromSexpr(
    const Sexpr& form, VarTable* vars) const {
  return ReadPattern(form, vars,
                     [this](const Sexpr& f) { return ReadForm(f); });
}

absl::StatusOr<Term> SymbolicLanguage::ParseTerm(absl::string_view text) const {
  absl::StatusOr<Sexpr> form = ReadOne(text);
  if (!form.ok()) return form.status();
  return TermFromSexpr(*form);
}

absl::StatusOr<Pattern> SymbolicLanguage::ParsePattern(absl::string_view text,
                                                       VarTable* vars) const {
  absl::StatusOr<Sexpr> form = ReadOne(text);
  if (!form.ok()) return form.status();
  return PatternFromSexpr(*form, vars);
}

Sexpr SymbolicLanguage::NodeToSexpr(const Term& term, uint32_t i) const {
  const Term::Node& n = term.node(i);
  PayloadId p = n.payload;
  if (n.arity == 0 && (n.op == number_op_ || n.op == symbol_op_)) {
    switch (payloads_->Kind(p)) {
      case PayloadKind::kInt:
        return Sexpr::Int(payloads_->IntValue(p));
      case PayloadKind::kFloat:
        return Sexpr::Float(payloads_->FloatValue(p));
      case PayloadKind::kSymbol:
        return Sexpr::Symbol(std::string(payloads_->Text(p)));
      case PayloadKind::kString:
        return Sexpr::String(std::string(payloads_->Text(p)));
      case PayloadKind::kNone:
        break;
    }
  }
  std::vector<Sexpr> items = {Sexpr::Symbol(std::string(ops_->Name(n.op)))};
  if (p != PayloadTable::kNone) {
    items.push_back(Sexpr::Symbol(payloads_->ToString(p)));
  }
  for (uint32_t c : term.children(i)) items.push_back(NodeToSexpr(term, c));
  return Sexpr::List(std::move(items));
}

Sexpr SymbolicLanguage::ToSexpr(const Term& term) const {
  return term.empty() ? Sexpr::List({}) : NodeToSexpr(term, term.root());
}

std::string SymbolicLanguage::Print(const Term& term) const {
  return PrintFlat(ToSexpr(term));
}

}  // namespace tessel::egraph
