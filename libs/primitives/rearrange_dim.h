// rearrange_dim (Exo's API_scheduling.rearrange_dim): an alloc's
// dimensions permuted.
#ifndef TESSEL_LIBS_PRIMITIVES_REARRANGE_DIM_H_
#define TESSEL_LIBS_PRIMITIVES_REARRANGE_DIM_H_

#include <cstdint>
#include <vector>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Dimension k of the new `(alloc x ...)` is dimension permute_vector[k] of
// the old, and every access's indices follow. A window of x keeps its
// meaning only when its kept (interval) dimensions stay in order; one that
// would be transposed is rejected.
absl::Status RearrangeDim(ir::Module& module, const ir::Cursor& buf_cursor,
                          const std::vector<int64_t>& permute_vector);

PrimitiveSpec RearrangeDimSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REARRANGE_DIM_H_
