// The lowering of scalar expressions shared by both levels: types, casts,
// literals and operators are written once; each level says only how it
// writes a domain variable and a tensor read (a loop variable and `(x i j)`
// at the loop level, a De Bruijn variable and `(index (index x I) J)` at the
// tensor level).
#ifndef TESSEL_LIBS_KERNEL_SCALAR_LOWERING_H_
#define TESSEL_LIBS_KERNEL_SCALAR_LOWERING_H_

#include <functional>
#include <vector>

#include "libs/ir/types.h"
#include "libs/kernel/kernel.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::kernel {

struct LeafRenderer {
  // Domain variable `var` of the statement, inside an index.
  std::function<Sexpr(int var, const Location& loc)> var;
  // A read (or the written element) of `access`, its indices rendered.
  std::function<Sexpr(const Access& access, std::vector<Sexpr> indices)> read;
};

// An affine index as a TIR control expression, terms in the order of the
// domain variables and the constant last, a positive term first where there
// is one: `2 * w + rw` -> (+ (* 2 w) rw), `7 - i` -> (- 7 i).
Sexpr RenderIndex(const AffineExpr& index, const LeafRenderer& render);

// The element `access` denotes, rendered by `render.read`.
Sexpr RenderAccess(const Access& access, const LeafRenderer& render);

// A typed value as a TIR data expression.
Sexpr RenderValue(const Value& value, const Statement& statement,
                  const LeafRenderer& render);

// What a statement's target starts from: 0 for `=` (elements no point
// writes) and `+=`, the type's lowest value for `max=` (-inf for floats),
// its highest for `min=`.
Sexpr InitialValue(AssignOp op, ElemType type, const Location& loc);

// One step of a reduction: (+ ACC VALUE), (max ACC VALUE), (min ACC VALUE);
// for `=`, VALUE itself.
Sexpr Combine(AssignOp op, Sexpr acc, Sexpr value, const Location& loc);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_SCALAR_LOWERING_H_
