// Exo's rename(proc, name): the procedure gets a new name, which must be
// fresh (no top-level form of the module has it); the module's calls of
// it follow.
#ifndef TESSEL_LIBS_PRIMITIVES_RENAME_H_
#define TESSEL_LIBS_PRIMITIVES_RENAME_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Renames `proc` (a proc of `module`) to `name` (without '@'). The proc is
// replaced by a renamed copy, to which cursors to it are forwarded.
absl::Status RenameProc(ir::Module& module, ir::Node& proc,
                        absl::string_view name);

PrimitiveSpec RenameSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_RENAME_H_
