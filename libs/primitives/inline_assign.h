// inline_assign (Exo): `x = e; s` becomes `s[x -> e]`.
#ifndef TESSEL_LIBS_PRIMITIVES_INLINE_ASSIGN_H_
#define TESSEL_LIBS_PRIMITIVES_INLINE_ASSIGN_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Deletes the assignment `assign` of a scalar alloc x declared in the same
// body and replaces every reference to x in the statements after it in
// that body by its value e. Proves that x holds e wherever it is read
// there and nowhere else matters: those statements only read x (no write,
// no reduction, no call passing it), write no buffer e reads (no
// assignment, reduction or call naming it), and, when e reads
// configuration, write no configuration; x is dead after the body that
// declares it. Exo checks only that the scalar is not written again (so
// `x = y[i]; y[i] = 0; z = x` becomes `y[i] = 0; z = y[i]` there).
absl::Status InlineAssign(ir::Module& module, const ir::Cursor& assign);

// inline_assign(alloc_cursor), Exo's name for the assignment's cursor.
PrimitiveSpec InlineAssignSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_INLINE_ASSIGN_H_
