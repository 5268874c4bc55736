// reuse_buffer (Exo's API_scheduling.reuse_buffer): an alloc's storage
// used for a later alloc of the same type, which is removed.
#ifndef TESSEL_LIBS_PRIMITIVES_REUSE_BUFFER_H_
#define TESSEL_LIBS_PRIMITIVES_REUSE_BUFFER_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Deletes the alloc `replace_cursor` (y) and makes every use of y a use of
// `buf_cursor` (x). Checked: y lies in x's scope after x, with x's type and
// memory; and the lifetimes are disjoint: no use of x comes after y, nor
// shares with y a loop inside x's scope (its next iteration would run after
// y). Otherwise FailedPrecondition naming the use of x.
absl::Status ReuseBuffer(ir::Module& module, const ir::Cursor& buf_cursor,
                         const ir::Cursor& replace_cursor);

PrimitiveSpec ReuseBufferSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REUSE_BUFFER_H_
