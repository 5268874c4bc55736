// fold_into_reduce (Exo): `x = x + e` becomes `x += e`.
#ifndef TESSEL_LIBS_PRIMITIVES_FOLD_INTO_REDUCE_H_
#define TESSEL_LIBS_PRIMITIVES_FOLD_INTO_REDUCE_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Folds the assignment `assign`, whose value is a sum with the assigned
// location as its left operand (the same buffer at the same indices, as
// written), into a reduction. Nothing else to prove: `x += e` is `x = x + e`
// by definition.
absl::Status FoldIntoReduce(ir::Module& module, const ir::Cursor& assign);

// fold_into_reduce(assign).
PrimitiveSpec FoldIntoReduceSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_FOLD_INTO_REDUCE_H_
