// commute_expr (Exo): `a + b` becomes `b + a`, `a * b` becomes `b * a`.
#ifndef TESSEL_LIBS_PRIMITIVES_COMMUTE_EXPR_H_
#define TESSEL_LIBS_PRIMITIVES_COMMUTE_EXPR_H_

#include <vector>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Swaps the operands of each of `exprs` (sums and products). Nothing to
// prove: both operands are evaluated either way, and IEEE 754 sums and
// products are commutative (as wrapping integer ones are). Any expression
// that is not a sum or a product is an InvalidArgument, before any edit.
absl::Status CommuteExpr(ir::Module& module,
                         const std::vector<ir::Cursor>& exprs);

// commute_expr(expr_cursors).
PrimitiveSpec CommuteExprSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_COMMUTE_EXPR_H_
