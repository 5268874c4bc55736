// Fills that a reduction's accumulators start from. `parse` writes a
// reduction as a fill of the element followed by the loops that accumulate
// into it (`y[i, j] = 0.0; for k: y[i, j] += ...`). Split into two nests,
// the fill writes every element once and the register tile of the
// reduction reads it back into its accumulators: the written tensor goes
// through memory three times. A fill kept in its reduction's nest is
// instead split off (fission) only from the register tile's loops, just
// before the reduction loops, where the tile's accumulators start from its
// value and it disappears (kernel.h, docs/vectorize.md, "Fills").
#ifndef TESSEL_LIBS_VECTORIZE_FILL_H_
#define TESSEL_LIBS_VECTORIZE_FILL_H_

#include "libs/ir/node.h"

namespace tessel::vectorize {

// Whether `loop`'s body is a fill and the loops of a reduction into the
// element it fills: two statements, the first an `assign` of a tensor
// element that every loop around it indexes, of a value that reads nothing
// of that tensor and has a vector form (an expression of the element's own
// indices and other tensors), the second a nest of loops holding one
// statement each down to a `reduce` into the same element (the same affine
// indices).
bool HoldsFill(const ir::Node& loop);

// The fill of the reduce `stmt`, the first statement of the loop around
// its reduction loops when that loop HoldsFill, or null.
ir::Node* FillOf(const ir::Node& stmt);

// Whether the value of `fill` has a vector along `lanes`: every read it
// makes is indexed by `lanes` only in its last dimension with coefficient
// 1 (a transfer-read of consecutive elements), or not at all (a
// broadcast).
bool FillVectorizes(const ir::Node& fill, const ir::Node& lanes);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_FILL_H_
