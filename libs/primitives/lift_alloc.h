// lift_alloc (Exo): an allocation moved out of `n_lifts` enclosing scopes.
#ifndef TESSEL_LIBS_PRIMITIVES_LIFT_ALLOC_H_
#define TESSEL_LIBS_PRIMITIVES_LIFT_ALLOC_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Moves the alloc at `alloc` to just before the loop or if around it,
// `n_lifts` times. One buffer then serves every iteration: a program that
// reads an element of an alloc only after writing it (reading an
// undefined element is an error, formats/tir) computes the same; its
// dimensions are sizes and literals, the same in every iteration. No
// statement of the body it enters may declare its name. Returns the
// alloc.
absl::StatusOr<ir::Cursor> LiftAlloc(ir::Module& module,
                                     const ir::Cursor& alloc,
                                     int64_t n_lifts = 1);

// lift_alloc(alloc, n_lifts=1).
PrimitiveSpec LiftAllocSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LIFT_ALLOC_H_
