// auto_stage_mem (Exo's stdlib auto_stage_mem): stage_mem of the smallest
// window of a buffer that holds every access of it in a block, computed
// from the accesses instead of written by hand. A schedule then stages a
// tile whose position depends on the kernel's sizes (a tail of rows at
// 6 * (M / 6)) without naming them, so that one schedule fits every size.
#ifndef TESSEL_LIBS_PRIMITIVES_AUTO_STAGE_MEM_H_
#define TESSEL_LIBS_PRIMITIVES_AUTO_STAGE_MEM_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"

namespace tessel::primitives {

// The window of `buffer` (an alloc or data parameter) that `block`'s
// accesses of it span, as a detached (window ...), or an element when
// every dimension is one point: per dimension, the point where every
// access has the same index outside the block's loops, or else the
// interval from the least to the greatest index over the block's loops
// (exact for indices and loop bounds affine in loop variables, each loop
// taken to run at least once). InvalidArgument when an index or a bound
// is not affine, when two accesses' extremes do not differ by a constant,
// or when the block names the whole buffer.
absl::StatusOr<ir::Node*> AccessedWindow(ir::Module& module,
                                         const ir::BlockCursor& block,
                                         const ir::Node& buffer);

// stage_mem(block, AccessedWindow(block, buffer), new_buf_name, accum),
// with stage_mem's checks.
absl::Status AutoStageMem(ir::Module& module, const ir::BlockCursor& block,
                          const ir::Node& buffer,
                          const std::string& new_buf_name, bool accum);

// auto_stage_mem(block, buff, new_buff_name, accum=False).
PrimitiveSpec AutoStageMemSpec();

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_AUTO_STAGE_MEM_H_
