// unroll_buffer (Exo's API_scheduling.unroll_buffer): an alloc split
// along a literal dimension into one alloc per index.
#ifndef TESSEL_LIBS_PRIMITIVES_UNROLL_BUFFER_H_
#define TESSEL_LIBS_PRIMITIVES_UNROLL_BUFFER_H_

#include <cstdint>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// `(alloc x (T ... N ...))`, N literal at `dimension`, becomes allocs
// x_0 ... x_{N-1} without that dimension (scalars for a vector), and each
// access of x, whose index there must be a literal k, an access of x_k.
// The new names must be fresh.
absl::Status UnrollBuffer(ir::Module& module, const ir::Cursor& alloc_cursor,
                          int64_t dimension);

PrimitiveSpec UnrollBufferSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_UNROLL_BUFFER_H_
