// Exo's rewrite_expr: a control expression replaced by another that isl
// proves equal to it at every instance of its statement (under the proc's
// assertions, the enclosing loops and branches); otherwise nothing changes
// and the error gives a point where they differ, and both values there.
#ifndef TESSEL_LIBS_PRIMITIVES_REWRITE_EXPR_H_
#define TESSEL_LIBS_PRIMITIVES_REWRITE_EXPR_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Replaces the expression at `expr` (a quasi-affine control expression)
// by a copy of `new_expr` (detached, in the expression's scope).
absl::Status RewriteExpr(ir::Module& module, const ir::Cursor& expr,
                         const ir::Node& new_expr);

// rewrite_expr(expr_cursor, new_expr).
PrimitiveSpec RewriteExprSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REWRITE_EXPR_H_
