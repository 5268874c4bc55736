// lift_reduce_constant (Exo): `x = 0; for i: x += c * e` becomes
// `x = 0; for i: x += e; x = c * x`.
#ifndef TESSEL_LIBS_PRIMITIVES_LIFT_REDUCE_CONSTANT_H_
#define TESSEL_LIBS_PRIMITIVES_LIFT_REDUCE_CONSTANT_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Lifts the factor c out of the sum of `block`: an assignment of 0 to a
// location x, then a loop whose body is one reduction into x of a product
// c * e. Proves that c is the same in every iteration (it uses neither the
// loop variable nor x's buffer, the one buffer the loop writes) and that
// c * (e1 + e2 + ...) is exactly c * e1 + c * e2 + ...: true for integers
// (they wrap), false for floats, which are rejected (Exo accepts them).
absl::Status LiftReduceConstant(ir::Module& module,
                                const ir::BlockCursor& block);

// lift_reduce_constant(block_cursor).
PrimitiveSpec LiftReduceConstantSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LIFT_REDUCE_CONSTANT_H_
