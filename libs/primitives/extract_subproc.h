// extract_subproc (Exo): a block becomes a call of a new procedure whose
// body it is.
#ifndef TESSEL_LIBS_PRIMITIVES_EXTRACT_SUBPROC_H_
#define TESSEL_LIBS_PRIMITIVES_EXTRACT_SUBPROC_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Moves the statements of `block` into a new proc `@subproc_name`, added to
// the module, and puts a call of it in their place. The new proc's
// parameters are what the block uses from outside it, named as there:
// control parameters and the loop variables around it (as `index`
// parameters) first, then the buffers (data parameters and allocs), each
// `in` when the block only reads it and `inout` otherwise, with its type
// and memory, in order of first use. With `include_asserts`, the proc's
// assertions that use only those parameters are copied. Nothing else is
// proven: the call passes every value and buffer by its name, so the
// callee's body computes what the block did (the module is verified again,
// the call with it). A block that uses a window named by a `let` outside
// it is refused.
absl::StatusOr<ir::Cursor> ExtractSubproc(ir::Module& module,
                                          const ir::BlockCursor& block,
                                          const std::string& subproc_name,
                                          bool include_asserts = true);

// extract_subproc(block, subproc_name, include_asserts=True).
PrimitiveSpec ExtractSubprocSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_EXTRACT_SUBPROC_H_
