// Whether two procedures are equivalent, proven with the scheduling
// analyses (`schedule-check --equiv A B`). Both are brought to a canonical
// form by rewrites that the primitives prove safe, then compared up to the
// names of their loops and buffers:
//   - `simplify` puts every control expression in its normal form;
//   - in every body, adjacent statements are put in a canonical order by
//     `reorder_stmts`, which swaps two only when they commute (Exo's
//     Definition 5.6) and no declaration is moved past its uses.
// Equal canonical forms compute the same thing; different ones are "not
// proven equivalent", which is not a proof that they differ (a tiled and an
// untiled loop nest, or a reassociated sum, are not recognised).
#ifndef TESSEL_LIBS_SCHEDULE_EQUIV_H_
#define TESSEL_LIBS_SCHEDULE_EQUIV_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"

namespace tessel::schedule {

// OK when `proc_a` of `module_a` and `proc_b` of `module_b` (procs of
// verified modules, their names aside) are proven equivalent: same
// parameters (names, kinds, types) and canonical bodies equal but for the
// names of what they bind. FailedPrecondition naming the first difference
// otherwise. Both modules are left in canonical form.
absl::Status CheckEquivalent(ir::Module& module_a, ir::Node& proc_a,
                             ir::Module& module_b, ir::Node& proc_b);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_EQUIV_H_
