// autofission (Exo): fission through as many of `n_lifts` enclosing loops
// as there are.
#ifndef TESSEL_LIBS_PRIMITIVES_AUTOFISSION_H_
#define TESSEL_LIBS_PRIMITIVES_AUTOFISSION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Fission at `gap` (fission.h, the same safety condition) through the
// loops around it, at most `n_lifts` of them: it stops, rather than
// fails, at the first scope that is not a loop (an if, the procedure).
// InvalidArgument when not even one loop holds the gap.
absl::StatusOr<ir::GapCursor> Autofission(ir::Module& module,
                                          const ir::GapCursor& gap,
                                          int64_t n_lifts = 1);

// autofission(gap, n_lifts=1).
PrimitiveSpec AutofissionSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_AUTOFISSION_H_
