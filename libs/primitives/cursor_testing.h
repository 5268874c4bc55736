// For the primitives' tests: cursors found the way a schedule's patterns
// would find them, without the schedule reader.
#ifndef TESSEL_LIBS_PRIMITIVES_CURSOR_TESTING_H_
#define TESSEL_LIBS_PRIMITIVES_CURSOR_TESTING_H_

#include <string>
#include <vector>

#include "libs/ir/cursor.h"
#include "libs/ir/node.h"

namespace tessel::primitives::testing {

// The statement reached from `proc`'s body by `path`: a statement's
// position in each body, outermost first.
ir::Cursor StmtAt(ir::Module& module, ir::Node& proc,
                  const std::vector<size_t>& path);

// The first alloc, loop or parameter of `proc` named `name`, in program
// order (the test fails when there is none).
ir::Cursor DeclNamed(ir::Module& module, ir::Node& proc,
                     const std::string& name);

}  // namespace tessel::primitives::testing

#endif  // TESSEL_LIBS_PRIMITIVES_CURSOR_TESTING_H_
