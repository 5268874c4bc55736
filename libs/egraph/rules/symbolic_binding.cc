#include "libs/egraph/rules/symbolic_binding.h"

#include <utility>

#include "absl/strings/str_cat.h"

namespace tessel::egraph::rules {

SymbolicBinding::SymbolicBinding(
    const SymbolicLanguage* language,
    absl::flat_hash_map<std::string, size_t> arities, LeafCheck check_leaf)
    : language_(language),
      arities_(std::move(arities)),
      check_leaf_(std::move(check_leaf)) {}

absl::Status SymbolicBinding::Check(const Sexpr& form, bool allow_vars) const {
  if (form.is_list()) {
    if (form.size() == 0 || !form[0].is_symbol()) {
      return ErrorAt(form.loc(), "expected (OP OPERAND...)");
    }
    auto it = arities_.find(form[0].text());
    if (it == arities_.end()) {
      return ErrorAt(form[0].loc(),
                     absl::StrCat("unknown op '", form[0].text(), "'"));
    }
    if (form.size() - 1 != it->second) {
      return ErrorAt(form[0].loc(),
                     absl::StrCat("'", it->first, "' takes ", it->second,
                                  it->second == 1 ? " operand" : " operands",
                                  ", got ", form.size() - 1));
    }
    for (size_t i = 1; i < form.size(); ++i) {
      absl::Status status = Check(form[i], allow_vars);
      if (!status.ok()) return status;
    }
    return absl::OkStatus();
  }
  if (form.is_symbol() && IsVariable(form.text())) {
    if (allow_vars) return absl::OkStatus();
    return ErrorAt(form.loc(), "a term cannot contain a variable");
  }
  if (form.is_symbol() && arities_.contains(form.text())) {
    return ErrorAt(form.loc(), absl::StrCat("op '", form.text(),
                                            "' needs operands: write (",
                                            form.text(), " ...)"));
  }
  if (form.is_string()) {
    return ErrorAt(form.loc(), "this language has no strings");
  }
  return check_leaf_(form);
}

absl::StatusOr<Pattern> SymbolicBinding::CompilePattern(const Sexpr& form,
                                                        VarTable* vars) const {
  absl::Status status = Check(form, /*allow_vars=*/true);
  if (!status.ok()) return status;
  return language_->PatternFromSexpr(form, vars);
}

absl::StatusOr<Term> SymbolicBinding::CompileTerm(const Sexpr& form) const {
  absl::Status status = Check(form, /*allow_vars=*/false);
  if (!status.ok()) return status;
  return language_->TermFromSexpr(form);
}

}  // namespace tessel::egraph::rules
