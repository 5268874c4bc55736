// Exo's specialize: a block run under a chain of conditions, a copy per
// condition and the original last: S becomes
// (if C1 (then S) (else (if C2 (then S) (else S)))). Every branch is S, so
// the values are the same whatever the conditions; later rewrites then
// specialise each copy.
#ifndef TESSEL_LIBS_PRIMITIVES_SPECIALIZE_H_
#define TESSEL_LIBS_PRIMITIVES_SPECIALIZE_H_

#include <vector>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Specializes `block` on `conds` (detached conditions of `module` in the
// block's scope, cloned where used; at least one). The block's statements
// move into the last else-branch, so cursors to them follow.
absl::Status Specialize(ir::Module& module, const ir::BlockCursor& block,
                        const std::vector<const ir::Node*>& conds);

// specialize(block, conds).
PrimitiveSpec SpecializeSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_SPECIALIZE_H_
