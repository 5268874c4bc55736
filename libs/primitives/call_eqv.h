// call_eqv (Exo's API_scheduling.call_eqv): a call's callee swapped for an
// equivalent proc.
#ifndef TESSEL_LIBS_PRIMITIVES_CALL_EQV_H_
#define TESSEL_LIBS_PRIMITIVES_CALL_EQV_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Makes the call `call_cursor` call `eqv_proc` instead. Exo accepts a proc
// that its scheduling history derived from the callee; this module keeps
// no such history, so equivalence here is what it can prove by itself:
// the two are of one kind (proc or instr) and alpha-equivalent but for
// their names and C templates (the same parameters in the same memories,
// the same assertions and bodies up to the names of what they bind). The
// verifier then checks the call as for any other.
absl::Status CallEqv(ir::Module& module, const ir::Cursor& call_cursor,
                     const ir::Node& eqv_proc);

PrimitiveSpec CallEqvSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_CALL_EQV_H_
