// Linear forms of control expressions: sum of coefficient * variable plus
// a constant, exactly, for the unification of replace (a loop bound or an
// index of a callee's body against the block's). Variables are opaque keys:
// binders of the IR, or unknowns a client makes up.
#ifndef TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_
#define TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

class LinearForm {
 public:
  using Var = const void*;

  static LinearForm Constant(int64_t value);
  static LinearForm Of(Var var, int64_t coefficient = 1);

  // `expr` (literals, names, +, -, neg, * by a literal) with each name's
  // binder mapped to a form by `name` (nullopt: not linear); nullopt for
  // any other operator.
  static std::optional<LinearForm> From(
      const ir::Node& expr,
      absl::FunctionRef<std::optional<LinearForm>(const ir::Node& binder)>
          name);
  // As above, with each subexpression of another operator (`(/ n 4)`, a
  // stride `(stride A 0)`) mapped to a form by `other` (nullopt: not
  // linear), which may make it a variable of its own (OpaqueTerms).
  static std::optional<LinearForm> From(
      const ir::Node& expr,
      absl::FunctionRef<std::optional<LinearForm>(const ir::Node& binder)> name,
      absl::FunctionRef<std::optional<LinearForm>(const ir::Node& expr)> other);

  LinearForm Plus(const LinearForm& other) const;
  LinearForm Times(int64_t k) const;
  // This form with `var` replaced by `value`.
  LinearForm Substituted(Var var, const LinearForm& value) const;

  int64_t coefficient(Var var) const;
  int64_t constant() const { return constant_; }
  // The variables with a nonzero coefficient, in the order they came.
  const std::vector<std::pair<Var, int64_t>>& terms() const { return terms_; }
  bool is_zero() const { return terms_.empty() && constant_ == 0; }
  // The same form: the same constant and coefficient of every variable,
  // in whatever order the terms came.
  friend bool operator==(const LinearForm& a, const LinearForm& b);

  // The form as a control expression, each variable (a binder) a
  // reference to it: `(+ (* 16 io) 4)`, `(- n 1)`, `0`.
  ir::Node* Build(ir::Module& module) const;
  // The form as a control expression with each variable's expression
  // built by `var`.
  ir::Node* Build(ir::Module& module,
                  absl::FunctionRef<ir::Node*(Var var)> var) const;

 private:
  void Add(Var var, int64_t coefficient);

  std::vector<std::pair<Var, int64_t>> terms_;
  int64_t constant_ = 0;
};

// Subexpressions that linear forms take whole, as variables of their own:
// a term that names none of the binders that vary where the forms are
// compared (`(/ N 64)`, a size's tile count, or `(stride A 0)`, in a block
// whose loops are the unknowns), one variable per text, so that two
// occurrences compare equal.
class OpaqueTerms {
 public:
  // `varying`: the binders (loops) a term may not name.
  explicit OpaqueTerms(absl::flat_hash_set<const ir::Node*> varying)
      : varying_(std::move(varying)) {}

  // `expr` (linear in binders, or with such terms) as a form: each binder a
  // variable, each term a variable of its own.
  std::optional<LinearForm> Form(const ir::Node& expr);
  // The form as a control expression: a reference to each binder, a copy of
  // each term.
  ir::Node* Build(ir::Module& module, const LinearForm& form) const;

 private:
  bool NamesVarying(const ir::Node& expr) const;

  absl::flat_hash_set<const ir::Node*> varying_;
  absl::flat_hash_map<std::string, const ir::Node*> terms_;
  absl::flat_hash_set<const ir::Node*> term_nodes_;
};

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_
