// A binding for small symbolic languages (egg's math and lambda) built on
// SymbolicLanguage: a fixed table of ops with their arities, and a check of
// the leaves (which numbers and symbols the language has).
#ifndef TESSEL_LIBS_EGRAPH_RULES_SYMBOLIC_BINDING_H_
#define TESSEL_LIBS_EGRAPH_RULES_SYMBOLIC_BINDING_H_

#include <functional>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "libs/egraph/rules/binding.h"
#include "libs/egraph/symbolic.h"
#include "libs/egraph/term.h"

namespace tessel::egraph::rules {

class SymbolicBinding : public Binding {
 public:
  // OK for a leaf (a number or a symbol that is not a variable) the
  // language has, else an error at the atom.
  using LeafCheck = std::function<absl::Status(const Sexpr& atom)>;

  // `language` outlives the binding; `arities` maps every op to its number
  // of operands.
  SymbolicBinding(const SymbolicLanguage* language,
                  absl::flat_hash_map<std::string, size_t> arities,
                  LeafCheck check_leaf);

  const SymbolicLanguage& language() const { return *language_; }

  absl::StatusOr<Pattern> CompilePattern(const Sexpr& form,
                                         VarTable* vars) const override;
  // A ground term of the language (no variables).
  absl::StatusOr<Term> CompileTerm(const Sexpr& form) const;

 private:
  absl::Status Check(const Sexpr& form, bool allow_vars) const;

  const SymbolicLanguage* language_;
  absl::flat_hash_map<std::string, size_t> arities_;
  LeafCheck check_leaf_;
};

}  // namespace tessel::egraph::rules

#endif  // TESSEL_LIBS_EGRAPH_RULES_SYMBOLIC_BINDING_H_
