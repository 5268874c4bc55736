// Exo's bind_expr: `a = 32.0 * x[i] + 4.0` becomes `b : f32; b = 32.0 *
// x[i]; a = b + 4.0` (a data expression computed once into a new scalar
// buffer and read from it); with several places that compute it, one
// buffer serves them all (common subexpression elimination).
#ifndef TESSEL_LIBS_PRIMITIVES_BIND_EXPR_H_
#define TESSEL_LIBS_PRIMITIVES_BIND_EXPR_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Binds the expressions at `exprs` (scalar data values, the same tree,
// references to the same binders, in any order) to a new scalar buffer
// named `new_name` (a fresh name), of the expression's element type: the
// buffer is allocated and assigned the expression just before the
// statement that holds them all (the first of them in their innermost
// common body), and each expression becomes a read of it. Safe when
// nothing the expression reads (elements, scalars, configuration fields)
// can be written between that assignment and any of the places (isl, on
// every instance: Exo checks names in program order only, and misses
// writes in later iterations of a loop around a place); when the
// expression can fail at run time (an integer division, a float converted
// to an integer, a read of an alloc or out parameter, which may not be
// written yet) it must already be computed unconditionally where it is
// bound; and the procedure must verify (the expression's reads in bounds
// where it is now computed). Returns the new allocation.
absl::StatusOr<ir::Cursor> BindExpr(ir::Module& module,
                                    absl::Span<const ir::Cursor> exprs,
                                    const std::string& new_name);

// bind_expr(expr_cursors, new_name, cse=False): the first value the
// pattern matches (or its `#N`), or with cse=True every value it matches
// that is the same as the first. Places written (the left side of an
// assignment) are not values and never match.
PrimitiveSpec BindExprSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_BIND_EXPR_H_
