// lift_if (Exo's stdlib): an if moved out of the scopes around it.
#ifndef TESSEL_LIBS_PRIMITIVES_LIFT_IF_H_
#define TESSEL_LIBS_PRIMITIVES_LIFT_IF_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Lifts the if at `if_cursor` out of the loop or if around it, `n_lifts`
// times, each lift as lift_scope does it, with its conditions: the if is
// the only statement of the body it leaves; its condition does not use
// the variable of a loop it leaves, and commutes with that loop's body
// (no iteration writes a configuration field it reads). All lifts are
// checked before the result is kept: when one fails, the module is as it
// was, and the error says how many lifts remained. Returns the if.
absl::StatusOr<ir::Cursor> LiftIf(ir::Module& module,
                                  const ir::Cursor& if_cursor,
                                  int64_t n_lifts = 1);

// lift_if(cursor, n_lifts=1).
PrimitiveSpec LiftIfSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_LIFT_IF_H_
