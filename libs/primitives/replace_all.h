// replace_all (Exo's stdlib): replace at every block that the body of a
// proc or instr matches.
#ifndef TESSEL_LIBS_PRIMITIVES_REPLACE_ALL_H_
#define TESSEL_LIBS_PRIMITIVES_REPLACE_ALL_H_

#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Tries `replace` (with `mem_aware`, call_site_mem_aware_replace) of
// `subproc` at every run of statements of the proc `proc` as long as the
// callee's body that starts with a statement of the body's first kind, in
// program order, and keeps each that is proven; a block that does not
// unify, or whose call would break a condition of replace, stays as it is
// (as in Exo, where it is skipped). Each replacement is one replace, with
// all of its checks, so nothing is accepted that replace would reject.
// Returns how many blocks were replaced.
absl::StatusOr<int> ReplaceAll(ir::Module& module, ir::Node& proc,
                               const ir::Node& subproc, bool mem_aware = true);

// replace_all(subprocs, mem_aware=True), with one proc or instr: a
// schedule lists one directive per callee.
PrimitiveSpec ReplaceAllSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_REPLACE_ALL_H_
