// Copies that give a nest its lanes: a tensor read with the lane loop in a
// dimension other than its last (matmul's B[j, k] for C[i, j]) is copied,
// before the nest, into a buffer whose last dimension that loop indexes.
#ifndef TESSEL_LIBS_VECTORIZE_LAYOUT_H_
#define TESSEL_LIBS_VECTORIZE_LAYOUT_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"

namespace tessel::vectorize {

// For a `reduce` whose written element's last index is a loop j plus a
// constant (j in no other index), each tensor it reads with j, with
// coefficient 1, in one dimension other than its last, and reads again
// across some loop of the nest (a reuse that pays for the copy), is
// staged over the whole nest (stage_mem: the box of elements the nest
// reads) and the copy's dimensions rearranged so that j's is last
// (rearrange_dim): every read the nest makes with j is then contiguous in
// it, and j can give the lanes. The copies' statements are added to
// `pending` (each a transposing nest of its own). Returns whether any was
// made; a primitive's rejection is an error at `stmt`.
absl::StatusOr<bool> CopyReadsForLanes(ir::Module& module, ir::Node& proc,
                                       ir::Node& stmt,
                                       std::vector<ir::Cursor>& pending);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_LAYOUT_H_
