// expand_dim (Exo's API_scheduling.expand_dim): a new leading dimension of
// an alloc, every access of it indexed there by one expression.
#ifndef TESSEL_LIBS_PRIMITIVES_EXPAND_DIM_H_
#define TESSEL_LIBS_PRIMITIVES_EXPAND_DIM_H_

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// `(alloc x (T D...))` becomes `(alloc x (T alloc_dim D...))` and every
// access `(x I...)` `(x indexing_expr I...)` (a window of x gets the point
// selector indexing_expr). Both expressions are detached trees in the
// scope of the alloc; `alloc_dim` is a literal or an expression of sizes.
// Checked by the verifier (the rejection is its diagnostic): alloc_dim is
// positive and indexing_expr lies in [0, alloc_dim) at every access.
absl::Status ExpandDim(ir::Module& module, const ir::Cursor& buf_cursor,
                       const ir::Node& alloc_dim,
                       const ir::Node& indexing_expr);

PrimitiveSpec ExpandDimSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_EXPAND_DIM_H_
