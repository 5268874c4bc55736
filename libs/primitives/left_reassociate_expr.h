// left_reassociate_expr (Exo): `a + (b + c)` becomes `(a + b) + c`, and
// likewise for `*`.
#ifndef TESSEL_LIBS_PRIMITIVES_LEFT_REASSOCIATE_EXPR_H_
#define TESSEL_LIBS_PRIMITIVES_LEFT_REASSOCIATE_EXPR_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Regroups `expr`, a sum (product) whose right operand is a sum (product).
// Exact for integer values only (they wrap, and wrapping arithmetic is
// associative); a float regrouping is rejected with values it changes
// (Exo accepts it: its real numbers `R` are associative, its f32 not).
absl::Status LeftReassociateExpr(ir::Module& module, const ir::Cursor& expr);

// left_reassociate_expr(expr).
PrimitiveSpec LeftReassociateExprSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LEFT_REASSOCIATE_EXPR_H_
