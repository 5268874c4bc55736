// divide_dim (Exo's API_scheduling.divide_dim): a dimension of an alloc
// split into a higher and a lower one.
#ifndef TESSEL_LIBS_PRIMITIVES_DIVIDE_DIM_H_
#define TESSEL_LIBS_PRIMITIVES_DIVIDE_DIM_H_

#include <cstdint>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Dimension `dim_idx` of the alloc, a literal N that `quotient` divides,
// becomes two, N / quotient and quotient, and each index I of it the two
// indices (/ I quotient) (% I quotient). A window keeping that dimension
// cannot be split and is rejected.
absl::Status DivideDim(ir::Module& module, const ir::Cursor& alloc_cursor,
                       int64_t dim_idx, int64_t quotient);

PrimitiveSpec DivideDimSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_DIVIDE_DIM_H_
