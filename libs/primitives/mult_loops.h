// mult_loops (Exo): `for i in lo..hi: for j in a..a+c: s` (c a literal)
// becomes `for k in 0..(hi-lo)*c: s[i -> lo + k / c, j -> a + k % c]`,
// divide_loop's inverse.
#ifndef TESSEL_LIBS_PRIMITIVES_MULT_LOOPS_H_
#define TESSEL_LIBS_PRIMITIVES_MULT_LOOPS_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Multiplies the perfectly nested loops at `outer` into one loop named
// `new_iter_name`. The inner loop's trip count must be a positive literal
// (its bounds then cannot depend on the outer variable, and k / c, k % c
// are quasi-affine); the iterations run in the same order, so nothing else
// is proven. Exo asks the outer loop to start at 0; any lower bound is
// taken here. Returns the new loop.
absl::StatusOr<ir::Cursor> MultLoops(ir::Module& module,
                                     const ir::Cursor& outer,
                                     const std::string& new_iter_name);

// mult_loops(nested_loops, new_iter_name).
PrimitiveSpec MultLoopsSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_MULT_LOOPS_H_
