// fission (Exo): `for i: s1; s2` split at the gap between s1 and s2 into
// `for i: s1` and `for i: s2`, through `n_lifts` enclosing loops.
#ifndef TESSEL_LIBS_PRIMITIVES_FISSION_H_
#define TESSEL_LIBS_PRIMITIVES_FISSION_H_

#include <cstdint>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Splits the `n_lifts` loops around `gap` at it: the statements before
// the gap (at every level) run, in a nest of their own, before those after
// it. Safe (the paper's section 5.8, for all levels at once) when every
// instance before the gap commutes with every instance after it that ran
// earlier (in an earlier iteration of a split loop), and the split loops'
// bounds commute with what runs before the gap. Reductions commute, so
// `+=` into one location split. A level where the gap is at the start or
// end of the body is lifted without a split (no empty loop). Returns the
// gap between the two outermost parts (its prev() and next() are them).
absl::StatusOr<ir::GapCursor> Fission(ir::Module& module,
                                      const ir::GapCursor& gap,
                                      int64_t n_lifts = 1);

// fission(gap, n_lifts=1).
PrimitiveSpec FissionSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_FISSION_H_
