#include "libs/kernel/affine.h"

#include "absl/strings/str_cat.h"

namespace tessel::kernel {

AffineExpr AffineExpr::Constant(int num_vars, int64_t value, Location loc) {
  AffineExpr expr;
  expr.coeffs.assign(num_vars, 0);
  expr.constant = value;
  expr.loc = std::move(loc);
  return expr;
}

AffineExpr AffineExpr::Variable(int num_vars, int var, Location loc) {
  AffineExpr expr = Constant(num_vars, 0, std::move(loc));
  expr.coeffs[var] = 1;
  return expr;
}

bool AffineExpr::is_constant() const {
  for (int64_t coeff : coeffs) {
    if (coeff != 0) return false;
  }
  return true;
}

std::optional<int> AffineExpr::AsVariable() const {
  if (constant != 0) return std::nullopt;
  std::optional<int> var;
  for (size_t v = 0; v < coeffs.size(); ++v) {
    if (coeffs[v] == 0) continue;
    if (coeffs[v] != 1 || var) return std::nullopt;
    var = static_cast<int>(v);
  }
  return var;
}

int64_t AffineExpr::Evaluate(const std::vector<int64_t>& point) const {
  int64_t value = constant;
  for (size_t v = 0; v < coeffs.size() && v < point.size(); ++v) {
    value += coeffs[v] * point[v];
  }
  return value;
}

namespace {

absl::Status Overflow(const Location& loc) {
  return ErrorAt(loc, "index arithmetic overflows 64 bits");
}

// a + sign * b, term by term.
absl::StatusOr<AffineExpr> Combine(AffineExpr a, const AffineExpr& b,
                                   int64_t sign, const Location& loc) {
  for (size_t v = 0; v < a.coeffs.size(); ++v) {
    int64_t scaled;
    if (__builtin_mul_overflow(b.coeffs[v], sign, &scaled) ||
        __builtin_add_overflow(a.coeffs[v], scaled, &a.coeffs[v])) {
      return Overflow(loc);
    }
  }
  int64_t scaled;
  if (__builtin_mul_overflow(b.constant, sign, &scaled) ||
      __builtin_add_overflow(a.constant, scaled, &a.constant)) {
    return Overflow(loc);
  }
  a.loc = loc;
  return a;
}

absl::StatusOr<AffineExpr> Scale(AffineExpr a, int64_t factor,
                                 const Location& loc) {
  for (int64_t& coeff : a.coeffs) {
    if (__builtin_mul_overflow(coeff, factor, &coeff)) return Overflow(loc);
  }
  if (__builtin_mul_overflow(a.constant, factor, &a.constant)) {
    return Overflow(loc);
  }
  a.loc = loc;
  return a;
}

}  // namespace

absl::StatusOr<AffineExpr> ToAffine(const ast::Expr& expr, int num_vars,
                                    const IndexNameResolver& resolve) {
  switch (expr.kind) {
    case ast::ExprKind::kNumber:
      if (expr.is_float) {
        return ErrorAt(expr.loc,
                       "an index must be an integer, not a "
                       "floating-point number");
      }
      return AffineExpr::Constant(num_vars, expr.int_value, expr.loc);
    case ast::ExprKind::kName:
      return resolve(expr);
    case ast::ExprKind::kElement:
      return ErrorAt(
          expr.loc,
          absl::StrCat("an index cannot read a tensor element ('", expr.name,
                       "[...]'): indices are affine in the "
                       "domain variables"));
    case ast::ExprKind::kCall:
      return ErrorAt(expr.loc,
                     absl::StrCat("an index cannot call '", expr.name,
                                  "': indices are affine in the domain "
                                  "variables"));
    case ast::ExprKind::kNeg: {
      auto operand = ToAffine(expr.operands[0], num_vars, resolve);
      if (!operand.ok()) return operand.status();
      return Scale(*std::move(operand), -1, expr.loc);
    }
    case ast::ExprKind::kBinary:
      break;
  }
  if (expr.op == ast::BinaryOp::kDiv) {
    return ErrorAt(expr.loc,
                   "an index cannot divide: indices are affine in the "
                   "domain variables");
  }
  auto lhs = ToAffine(expr.operands[0], num_vars, resolve);
  if (!lhs.ok()) return lhs.status();
  auto rhs = ToAffine(expr.operands[1], num_vars, resolve);
  if (!rhs.ok()) return rhs.status();
  if (expr.op != ast::BinaryOp::kMul) {
    return Combine(*std::move(lhs), *rhs,
                   expr.op == ast::BinaryOp::kAdd ? 1 : -1, expr.loc);
  }
  if (lhs->is_constant())
    return Scale(*std::move(rhs), lhs->constant, expr.loc);
  if (rhs->is_constant())
    return Scale(*std::move(lhs), rhs->constant, expr.loc);
  return ErrorAt(expr.loc,
                 "an index cannot multiply two domain variables: indices "
                 "are affine in the domain variables");
}

}  // namespace tessel::kernel
