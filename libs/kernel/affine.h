// Affine index expressions over a statement's domain variables, and their
// construction from the syntax tree (which is where "indices are affine" is
// enforced).
#ifndef TESSEL_LIBS_KERNEL_AFFINE_H_
#define TESSEL_LIBS_KERNEL_AFFINE_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/kernel/ast.h"
#include "libs/support/source.h"

namespace tessel::kernel {

// constant + sum(coeffs[v] * var v), with one coefficient per domain
// variable of the statement.
struct AffineExpr {
  std::vector<int64_t> coeffs;
  int64_t constant = 0;
  Location loc;

  static AffineExpr Constant(int num_vars, int64_t value, Location loc);
  static AffineExpr Variable(int num_vars, int var, Location loc);

  bool is_constant() const;
  // The variable when the expression is exactly one variable (coefficient
  // 1, no constant), as in `y[i, j]`.
  std::optional<int> AsVariable() const;
  // The value at a point of the domain (one value per variable).
  int64_t Evaluate(const std::vector<int64_t>& point) const;
};

// Resolves a name in an index: a domain variable or a size becomes an affine
// expression; anything else (a tensor, a scalar) is an error the resolver
// reports.
using IndexNameResolver =
    std::function<absl::StatusOr<AffineExpr>(const ast::Expr& name)>;

// Converts an index written in the kernel to affine form. Literals, names,
// `+`, `-`, unary minus and products with a constant side are affine;
// products of variables, divisions, tensor elements and calls are errors
// located at the offending operator, as is coefficient overflow.
absl::StatusOr<AffineExpr> ToAffine(const ast::Expr& expr, int num_vars,
                                    const IndexNameResolver& resolve);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_AFFINE_H_
