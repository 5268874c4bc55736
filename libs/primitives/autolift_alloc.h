// autolift_alloc (Exo's API): an allocation lifted out of `n_lifts` scopes,
// with a dimension for each loop it leaves whose iterations it holds
// different values in.
#ifndef TESSEL_LIBS_PRIMITIVES_AUTOLIFT_ALLOC_H_
#define TESSEL_LIBS_PRIMITIVES_AUTOLIFT_ALLOC_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Exo's legacy lift: with `keep_dims`, first expand_dim of the alloc for
// each loop among the `n_lifts` scopes around it (loops and ifs, as
// lift_alloc counts them) whose variable its values depend on (through
// the indices, values and guards of what writes it, transitively, as
// Exo's LoopIR_Dependencies), of the loop's upper bound (or `size`, when
// positive) and indexed by its variable: in front of the old dimensions,
// outermost loop first (`mode` "row"), or after them ("col"). Then
// lift_alloc(n_lifts). Each step is the primitive's, with its checks (the
// verifier proves each new index in its dimension: a loop from a negative
// bound, or a `size` below the trip count, is rejected); when one fails,
// the module is as it was. Returns the alloc.
absl::StatusOr<ir::Cursor> AutoliftAlloc(ir::Module& module,
                                         const ir::Cursor& alloc,
                                         int64_t n_lifts = 1,
                                         const std::string& mode = "row",
                                         int64_t size = 0,
                                         bool keep_dims = false);

// autolift_alloc(alloc_cursor, n_lifts=1, mode="row", size=0,
// keep_dims=False); size 0 stands for Exo's None (the loop's bound).
PrimitiveSpec AutoliftAllocSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_AUTOLIFT_ALLOC_H_
