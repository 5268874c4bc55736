// Dot tiles: a contraction `C[i, j] += X[i, k] * Y[k, j]` whose lane loop
// `j` has a few lanes (the columns past a matmul's last whole vector: 100
// columns are 6 vectors of 16 and 4) computed as dot products along its
// reduction loop `k` instead, OpenBLAS's way for such columns: the tile is
// R rows x c columns of accumulators of the full width, R * c = width, each
// lane a partial sum over `k`, which one multi-reduction of the R * c
// accumulators, halving (formats/tir/README.md, "Vector level"), adds into
// the R x c elements of C (a nest's last rows, and 3 columns, take a tile
// with fewer, the block's other elements masked). Vectors of 4 lanes run at
// half the rate of the target's (58 against 117 GFLOP/s on AVX-512); the 4 x 4
// dot tile of a 96 x 4 x 100 matmul ran at 74-75, as fast as OpenBLAS's.
#ifndef TESSEL_LIBS_VECTORIZE_DOT_TILE_H_
#define TESSEL_LIBS_VECTORIZE_DOT_TILE_H_

#include <cstdint>
#include <optional>

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/vectorize/nest.h"
#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// The loops and reads of a nest that a dot tile computes.
struct DotNest {
  const ir::Node* rows = nullptr;     // i: C's next-to-last dimension
  const ir::Node* columns = nullptr;  // j: C's last dimension (the lanes' loop)
  const ir::Node* reduction = nullptr;  // k
  ir::Node* row_read = nullptr;         // X: k in its last dimension, with i
  ir::Node* column_read = nullptr;      // Y: k in one dimension, with j
  // Y's dimension that k indexes; a Y whose last dimension it is not is
  // copied with it last (layout.h) before the tile reads it, so it must
  // be a tensor parameter or alloc (IsStageable), not a `let`'s window.
  int64_t column_read_dim = 0;
};

// The columns of a dot tile's block for `columns` columns: the least power
// of two not below (3 columns take a block of 4, the last masked).
int64_t DotSlots(int64_t columns);

// The rows of a dot tile of `columns` columns: width / DotSlots.
int64_t DotRows(int64_t columns, const Strategy& strategy);

// The dot nest of `stmt` (its instances proven to commute, PlanNest), or
// nullopt: a reduce of the product of two reads of its element type, f32
// or f64, with `strategy.contraction` fma (the tile sums each element in
// another order); C's last two dimensions indexed by a loop each with
// coefficient 1 (`columns`, `rows`) and by no other loop but one
// reduction loop `k` of at least a vector's iterations; each read indexed
// by `k` in one dimension with coefficient 1 and by exactly one of `rows`
// and `columns` in another, the row read's `k` dimension its last. The
// columns, `columns_trip` of them (0: the loop's own trip count), take a
// block of DotSlots columns, at most `strategy.dot` and a quarter of the
// width (a tile of 4 rows or more). The rows may be fewer than a tile's.
std::optional<DotNest> DotNestOf(ir::Node& stmt, const Strategy& strategy,
                                 int64_t columns_trip = 0);

// Whether the fill of a dot nest can stay with it: its value reads no
// tensor and no loop (the multi-reduction then starts from it).
bool DotKeepsFill(ir::Node& fill);

// Replaces the three innermost loops around `stmt` (a DotNestOf nest
// whose column read has the reduction's dimension last, and whose fill,
// if any, DotKeepsFill): its rows (DotRows iterations or fewer), columns
// and reduction loop, in that order, by the dot tile's vector code: the
// accumulators, a loop over the reduction's vectors (its last padded, or
// a masked one after it), and the halving multi-reduction into C (a
// block of DotRows rows, masked to the tile's).
absl::Status EmitDotTile(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                         const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_DOT_TILE_H_
