// resize_dim (Exo's API_scheduling.resize_dim): a dimension of an alloc
// shrunk (or grown) to the part that is used.
#ifndef TESSEL_LIBS_PRIMITIVES_RESIZE_DIM_H_
#define TESSEL_LIBS_PRIMITIVES_RESIZE_DIM_H_

#include <cstdint>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Dimension `dim_idx` of the alloc becomes `size` (a literal or an
// expression of sizes) and each index I of it (- I offset) (an interval's
// both ends). `size` and `offset` are detached trees in the scope of the
// alloc. Checked by the verifier, whose first out-of-bounds access is the
// witness: every access lies in [offset, offset + size). `fold=True`
// (Exo's circular buffers) is not supported: it needs a liveness proof
// this module does not make, and is rejected.
absl::Status ResizeDim(ir::Module& module, const ir::Cursor& buf_cursor,
                       int64_t dim_idx, const ir::Node& size,
                       const ir::Node& offset, bool fold = false);

PrimitiveSpec ResizeDimSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_RESIZE_DIM_H_
