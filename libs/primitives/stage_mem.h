// stage_mem (Exo's API_scheduling.stage_mem): a block's accesses to a
// window of a buffer redirected to a new buffer the window's shape, filled
// from the window before the block (when the block reads it) and copied
// back after it (when the block writes it).
#ifndef TESSEL_LIBS_PRIMITIVES_STAGE_MEM_H_
#define TESSEL_LIBS_PRIMITIVES_STAGE_MEM_H_

#include <string>

#include "absl/status/status.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// Stages `win_expr` (a detached (window B SEL...), or an element (B I...)
// for a single point, in the scope of the block) into a new buffer
// `new_buf_name` in @DRAM, allocated just before `block_cursor`:
//
//   (alloc new (E EXT...))          EXT: the window's interval extents
//   copy-in: new[k] = B[lo + k]     if the block reads the window, or
//                                   writes only part of it
//   BLOCK, each B[idx] as new[idx - lo] (the window's points dropped)
//   copy-out: B[lo + k] = new[k]    if the block writes the window
//
// With `accum`, the block must only reduce into B: the new buffer starts
// at zero and is added back (B[lo + k] += new[k]). That regroups the
// block's sums, which is exact for integers only: a float B is rejected
// (Exo accepts it; its rounding changes).
//
// Checked (FailedPrecondition with the first failing instance): every
// access of B inside the block lies inside the window; the window lies
// inside B (the copies stay in bounds); no window of B named by a `let`
// is used inside the block (it would bypass the stage).
absl::Status StageMem(ir::Module& module, const ir::BlockCursor& block_cursor,
                      const ir::Node& win_expr, const std::string& new_buf_name,
                      bool accum = false);

// Whether StageMem stages windows of `buffer`: a tensor parameter or an
// alloc of rank 1 or more (not a `let`'s window, nor a scalar).
bool IsStageable(const ir::Node& buffer);

PrimitiveSpec StageMemSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_STAGE_MEM_H_
