// The affine-expression simplifier: control expressions (index, size and
// stride arithmetic) put in one normal form, so that what a primitive
// builds (a divided loop's `(+ (* 16 io) ii)`, a shifted loop's bounds)
// prints as a person writes it and compares structurally. And Exo's
// `simplify` primitive, which applies it to a whole procedure.
//
// The normal form of a sum is its terms in order of first appearance, like
// terms collected, each `ATOM` or `(* C ATOM)`, negative ones subtracted,
// the constant last: `(- (+ (* 16 io) ii) 3)`. An atom is a name or a
// non-affine part (`(/ a N)`, `(% a N)`, min, max, stride, read-config),
// itself simplified. Literal arithmetic folds; `(/ (+ (* N q) r) N)` is
// `(+ q (/ r N))` and `(% (+ (* N q) r) N)` is `(% r N)`, both exact for
// floor division; `(/ r N)` is 0 and `(% r N)` is `r` where loops with
// literal bounds prove 0 <= r < N. The result is deterministic and
// simplifying it again changes nothing.
#ifndef TESSEL_LIBS_PRIMITIVES_SIMPLIFY_EXPR_H_
#define TESSEL_LIBS_PRIMITIVES_SIMPLIFY_EXPR_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::ir {
class Module;
}  // namespace tessel::ir

namespace tessel::primitives {

// `expr` (a control expression of `module`, typed as the verifier types
// it) simplified, as a new detached tree; `expr` is unchanged. Parts that
// are not control arithmetic are cloned as they are.
ir::Node* SimplifyExpr(ir::Module& module, const ir::Node& expr);

// Exo's simplify: every control expression of `proc` (or of any statement
// under it) simplified in place.
// Always succeeds (simplifying preserves every value).
absl::Status Simplify(ir::Module& module, ir::Node& proc);

// simplify() (no parameters but the proc).
PrimitiveSpec SimplifySpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SIMPLIFY_EXPR_H_
