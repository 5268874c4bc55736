// Sharing repeated values of the tensor level. A term is a tree: a value it
// uses twice is written, and computed, twice (saturate's extraction yields
// trees, so gemver's updated matrix A, an output and an operand of two
// gemvs, came out three times). TIR names a value with `(app (lam BODY)
// VALUE)` (formats/tir/README.md), which run-sim evaluates once.
#ifndef TESSEL_LIBS_IR_SHARE_H_
#define TESSEL_LIBS_IR_SHARE_H_

#include "libs/ir/node.h"

namespace tessel::ir {

// Names every value of `term` that is computed more than once: a loop
// (`build`, `ifold`) or a library call without free De Bruijn variables
// that occurs twice or more (up to alpha-equivalence) becomes one
// `(app (lam ...) VALUE)` around `term`, its occurrences `%K`. Largest
// values first, so a value repeated inside a named one is named once too.
// `term` must be attached (it is replaced in its parent) and verified (its
// references resolved). Returns the new root, `term` if nothing repeats.
Node* ShareRepeatedValues(Module& module, Node* term);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_SHARE_H_
