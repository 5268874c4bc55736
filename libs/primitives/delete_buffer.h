// delete_buffer (Exo's API_scheduling.delete_buffer): an unused alloc
// removed.
#ifndef TESSEL_LIBS_PRIMITIVES_DELETE_BUFFER_H_
#define TESSEL_LIBS_PRIMITIVES_DELETE_BUFFER_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Deletes the alloc `buf_cursor`; FailedPrecondition naming its first use
// when it has one.
absl::Status DeleteBuffer(ir::Module& module, const ir::Cursor& buf_cursor);

PrimitiveSpec DeleteBufferSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_DELETE_BUFFER_H_
