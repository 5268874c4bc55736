// Linear forms of control expressions: sum of coefficient * variable plus
// a constant, exactly, for the unification of replace (a loop bound or an
// index of a callee's body against the block's). Variables are opaque keys:
// binders of the IR, or unknowns a client makes up.
#ifndef TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_
#define TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

class LinearForm {
 public:
  using Var = const void*;

  static LinearForm Constant(int64_t value);
  static LinearForm Of(Var var, int64_t coefficient = 1);

  // `expr` (literals, names, strides, +, -, neg, * by a literal) with each
  // name's binder, and each stride (an opaque value, fixed for a buffer),
  // mapped to a form by `name` (nullopt: not linear); nullopt for any
  // other operator.
  static std::optional<LinearForm> From(
      const ir::Node& expr,
      absl::FunctionRef<std::optional<LinearForm>(const ir::Node& binder)>
          name);

  LinearForm Plus(const LinearForm& other) const;
  LinearForm Times(int64_t k) const;
  // This form with `var` replaced by `value`.
  LinearForm Substituted(Var var, const LinearForm& value) const;

  int64_t coefficient(Var var) const;
  int64_t constant() const { return constant_; }
  // The variables with a nonzero coefficient, in the order they came.
  const std::vector<std::pair<Var, int64_t>>& terms() const { return terms_; }
  bool is_zero() const { return terms_.empty() && constant_ == 0; }

  // The form as a control expression, each variable (a binder) a
  // reference to it, a stride a copy of it: `(+ (* 16 io) 4)`, `(- n 1)`,
  // `(stride A 0)`, `0`.
  ir::Node* Build(ir::Module& module) const;

 private:
  void Add(Var var, int64_t coefficient);

  std::vector<std::pair<Var, int64_t>> terms_;
  int64_t constant_ = 0;
};

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LINEAR_FORM_H_
