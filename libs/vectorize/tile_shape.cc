#include "libs/vectorize/tile_shape.h"

#include <algorithm>
#include <cstdint>

namespace tessel::vectorize {
namespace {

// The rows below which a tile costs as much as a tile of this many: with
// fewer, its steps wait on the latency of their fused multiply-adds and
// on the loads of the shared vectors (measured on the dense 3x3 layers of
// docs/vectorize.md, "Convolutions": 7 output columns as 6 + 1 rows ran at
// 0.77 of one tile of 7).
constexpr int64_t kShortTile = 3;

// What other rows than the strategy's must save of its tiles' cost: a
// long row loop keeps the strategy's tile, whose shape is measured, not
// modelled.
constexpr int64_t kLeastSavingPercent = 5;

// The fewest rows of a tile widened to the whole lane loop: 80 lanes as
// one tile of 5 rows x 5 vectors ran at 1.03x tiles of 7 x 4 and 7 x 1
// (115.7 against 112.9 GFLOP/s, 80^3, docs/vectorize.md "Performance");
// with 4 rows or fewer GCC reads each shared vector once per row, as an
// operand of each multiply-add, and the loads bound the tile (4 x 7 at
// 100^3: 0.69x of 7 x 4).
constexpr int64_t kLeastWideRows = 5;

// The fewest accumulators that keep two FMA units busy at a latency of 4
// cycles: with fewer, each step waits on the multiply-adds of the one
// before. A tile that counts its own reads as registers and is left with
// fewer takes them as memory operands of its multiply-adds instead, as
// GCC compiles them anyway: an AVX2 depthwise layer's 6 x 1 tile (6
// accumulators) ran 4-22 % slower than 6 x 2 (12; MobileNet's layers,
// docs/vectorize.md "Convolutions").
constexpr int64_t kLeastAccumulators = 8;

// Tiles of `rows` and of `rows - 1` that cover `trip` rows exactly, as many
// of the first as can be, for a loop whose tiles of `rows` end in a tile
// shorter than kShortTile: a 2-row tile's steps load each shared vector
// for two multiply-adds, and GCC reads them as memory operands (2 x 100 x
// 100 of matmul at 67 GFLOP/s against 110 for 98 x 100 x 100; 100^3 as
// tiles of 7 and 6 ran 1.5 % faster than as 14 of 7 and one of 2,
// docs/vectorize.md "Performance"). Tiles of fewer than kLeastWideRows
// rows are bound by those loads as well: a tile of 5 rows keeps its
// short last tile.
void AvoidShortLastTile(int64_t trip, TileShape& shape) {
  const int64_t rows = shape.rows;
  if (trip % rows == 0 || trip % rows >= kShortTile ||
      rows - 1 < kLeastWideRows) {
    return;
  }
  for (int64_t whole = trip / rows; whole >= 0; --whole) {
    const int64_t rest = trip - whole * rows;
    if (rest % (rows - 1) != 0) continue;
    if (whole == 0) {
      shape.rows = rows - 1;
    } else if (whole * rows > rest) {
      shape.row_block = whole * rows;
    } else {
      shape.rows = rows - 1;
      shape.row_block = rest;
    }
    return;
  }
}

// The cost of covering `trip` rows with tiles of `rows`.
int64_t RowsCost(int64_t trip, int64_t rows) {
  int64_t cost = trip / rows * std::max(rows, kShortTile);
  if (trip % rows != 0) cost += std::max(trip % rows, kShortTile);
  return cost;
}

// The most vectors, up to the strategy's, of a tile of the strategy's rows
// that fits its registers (at least 1).
int64_t VectorsFitting(const Strategy& strategy, const TileReads& reads) {
  int64_t vectors = strategy.vectors;
  while (vectors > 1 &&
         TileRegisters(reads, strategy.rows, vectors) > strategy.registers) {
    --vectors;
  }
  return vectors;
}

}  // namespace

int64_t TileRegisters(const TileReads& reads, int64_t rows, int64_t vectors) {
  return rows * vectors * (1 + reads.own) + vectors * reads.shared;
}

TileShape ChooseTileShape(const Strategy& strategy,
                          const TileReads& given_reads, int64_t lane_vectors,
                          int64_t row_trip) {
  TileShape shape;
  shape.vectors = strategy.vectors;
  shape.rows = strategy.rows;
  if (!strategy.fit) return shape;
  TileReads reads = given_reads;
  shape.vectors = VectorsFitting(strategy, reads);
  if (reads.own > 0 && shape.vectors * strategy.rows < kLeastAccumulators) {
    reads.own = 0;
    shape.vectors = VectorsFitting(strategy, reads);
  }
  // The rows the tile prefers: the strategy's, or those of a tile widened
  // to the whole lane loop.
  int64_t preferred_rows = strategy.rows;
  if (lane_vectors == shape.vectors + 1 && shape.vectors == strategy.vectors) {
    int64_t rows = 0;
    while (TileRegisters(reads, rows + 1, lane_vectors) <= strategy.registers) {
      ++rows;
    }
    if (rows >= kLeastWideRows) {
      shape.vectors = lane_vectors;
      shape.rows = preferred_rows = std::min(rows, strategy.rows);
    }
  }
  if (row_trip <= 0) return shape;
  if (row_trip <= preferred_rows) {
    shape.rows = row_trip;
    return shape;
  }
  const int64_t strategys_cost = RowsCost(row_trip, shape.rows);
  int64_t best_cost = strategys_cost;
  for (int64_t rows = preferred_rows + 1;
       rows <= row_trip &&
       TileRegisters(reads, rows, shape.vectors) <= strategy.registers;
       ++rows) {
    int64_t cost = RowsCost(row_trip, rows);
    if (cost < best_cost &&
        cost * 100 <= strategys_cost * (100 - kLeastSavingPercent)) {
      shape.rows = rows;
      best_cost = cost;
    }
  }
  AvoidShortLastTile(row_trip, shape);
  return shape;
}

}  // namespace tessel::vectorize
