// mult_dim (Exo): two dimensions of an alloc, the lower of a literal size,
// become one, divide_dim's inverse.
#ifndef TESSEL_LIBS_PRIMITIVES_MULT_DIM_H_
#define TESSEL_LIBS_PRIMITIVES_MULT_DIM_H_

#include <cstdint>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Dimensions `hi_dim_idx` (of size N) and `lo_dim_idx` (a literal c) of the
// alloc become one of size N * c at `hi_dim_idx`'s place, and each access
// `x[.., i, .., j, ..]` becomes `x[.., i * c + j, ..]`. Distinct elements
// stay distinct because every j lies in 0..c, which the verifier proves of
// the original (and of the result, through the Transaction). A window
// keeping either dimension cannot be merged and is rejected.
absl::Status MultDim(ir::Module& module, const ir::Cursor& alloc_cursor,
                     int64_t hi_dim_idx, int64_t lo_dim_idx);

// mult_dim(alloc_cursor, hi_dim_idx, lo_dim_idx).
PrimitiveSpec MultDimSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_MULT_DIM_H_
