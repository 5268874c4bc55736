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
// long row loop keeps the strategy's tile (matmul's 2048 rows as 6s and a
// 2, not 7s and a 4), whose shape is measured, not modelled.
constexpr int64_t kLeastSavingPercent = 5;

// The cost of covering `trip` rows with tiles of `rows`.
int64_t RowsCost(int64_t trip, int64_t rows) {
  int64_t cost = trip / rows * std::max(rows, kShortTile);
  if (trip % rows != 0) cost += std::max(trip % rows, kShortTile);
  return cost;
}

}  // namespace

int64_t TileRegisters(const TileReads& reads, int64_t rows, int64_t vectors) {
  return rows * vectors * (1 + reads.own) + vectors * reads.shared;
}

TileShape ChooseTileShape(const Strategy& strategy, const TileReads& reads,
                          int64_t row_trip) {
  TileShape shape;
  shape.vectors = strategy.vectors;
  shape.rows = strategy.rows;
  if (!strategy.fit) return shape;
  while (shape.vectors > 1 &&
         TileRegisters(reads, strategy.rows, shape.vectors) >
             strategy.registers) {
    --shape.vectors;
  }
  if (row_trip <= 0) return shape;
  if (row_trip <= strategy.rows) {
    shape.rows = row_trip;
    return shape;
  }
  const int64_t strategys_cost = RowsCost(row_trip, shape.rows);
  int64_t best_cost = strategys_cost;
  for (int64_t rows = strategy.rows + 1;
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
  return shape;
}

}  // namespace tessel::vectorize
