// lift_scope (Exo): a loop or if moved out of the loop or if around it.
#ifndef TESSEL_LIBS_PRIMITIVES_LIFT_SCOPE_H_
#define TESSEL_LIBS_PRIMITIVES_LIFT_SCOPE_H_

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Swaps the scope at `scope` (a for or an if, the only statement of the
// body around it) with the scope around it:
//   for i: for j: s           ->  reorder_loops (its condition)
//   for i: if c: s1 else s2   ->  if c: (for i: s1) else (for i: s2)
//   if c: for i: s            ->  for i: if c: s
//   if a: if b: s1 else s2    ->  if b: (if a: s1) else (if a: s2)
//   if a: (if b: s1 else s2) else s3
//                             ->  if b: (if a: s1 else s3)
//                                 else (if a: s2 else s3)
// (as Exo: an if in either branch of an if with an else-branch, the other
// branch copied into both). A condition lifted out of a loop must not use
// its variable; one moved across a loop body must commute with it (the
// body writes no configuration field it reads). A loop is not lifted out
// of an if with an else-branch. Returns the lifted scope.
absl::StatusOr<ir::Cursor> LiftScope(ir::Module& module,
                                     const ir::Cursor& scope);

// lift_scope(scope).
PrimitiveSpec LiftScopeSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LIFT_SCOPE_H_
