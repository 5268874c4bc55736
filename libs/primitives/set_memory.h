// set_memory (Exo's API_scheduling.set_memory): a buffer moved to another
// memory.
#ifndef TESSEL_LIBS_PRIMITIVES_SET_MEMORY_H_
#define TESSEL_LIBS_PRIMITIVES_SET_MEMORY_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Puts the alloc or data parameter `cursor` in `memory_type` (a memory
// form, or @DRAM). Checked by the verifier, whose diagnostic is the
// rejection: code that is not an instruction may not touch a memory that
// is not addressable, and a call passes each buffer in its parameter's
// memory (a parameter's callers are verified too).
absl::Status SetMemory(ir::Module& module, const ir::Cursor& cursor,
                       const ir::Node& memory_type);

PrimitiveSpec SetMemorySpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SET_MEMORY_H_
