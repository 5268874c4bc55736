// The shape of a register tile: how many rows and vectors of lanes a nest's
// tile takes (formats/strategy/README.md, "Register tiles"). The strategy's
// `rows` and `vectors` are the preferred tile; a nest gets fewer vectors
// when its reads leave no room for that tile in the target's registers,
// and rows balanced for its row loop, so that a short loop does not end in
// a tile of one or two rows.
#ifndef TESSEL_LIBS_VECTORIZE_TILE_SHAPE_H_
#define TESSEL_LIBS_VECTORIZE_TILE_SHAPE_H_

#include <cstdint>

#include "libs/vectorize/strategy.h"

namespace tessel::vectorize {

// What each step of a tile's reduction reads, which decides the registers
// the tile needs besides its rows * vectors accumulators.
struct TileReads {
  // Reads the rows share, one vector each per vector of the tile (matmul's
  // B, a convolution's filter): `vectors` registers each.
  int64_t shared = 0;
  // Reads of a vector of each row's own (a depthwise convolution's input):
  // as many registers each as accumulators, since the compiler may keep
  // the vectors that consecutive taps of a window share; none where that
  // leaves the tile fewer than 8 accumulators, which it then reads as
  // memory operands of its multiply-adds.
  int64_t own = 0;
  // Reads the rows make of one element each (matmul's A) are broadcast
  // from memory inside the fused multiply-add and need no register.
};

struct TileShape {
  int64_t rows = 1;
  int64_t vectors = 1;
  // Where tiles of two sizes cover the row loop: the rows its first tiles,
  // of `rows` each, cover (more than half of the loop, so that divide_loop
  // cuts them off with one tile); the rest is a nest of its own, whose
  // tiles have a row more or fewer. 0: tiles of `rows` cover the loop.
  int64_t row_block = 0;
};

// The registers a tile of `rows` x `vectors` needs.
int64_t TileRegisters(const TileReads& reads, int64_t rows, int64_t vectors);

// The tile of a nest whose row loop runs `row_trip` iterations (0: no row
// loop), whose lane loop is `lane_vectors` vectors (LaneVectors) and whose
// reads are `reads`:
//  - vectors: the most, up to the strategy's, whose tile of the strategy's
//    rows fits the strategy's registers (at least 1), the rows' own reads
//    counted as registers unless that leaves fewer than 8 accumulators,
//    too few to keep two FMA units busy; or all the lane
//    loop's where it is one vector more than those and a tile of all of
//    them still holds kLeastWideRows rows, which are then the strategy's
//    rows for what follows;
//  - rows: the row loop's trip where it is shorter than the strategy's
//    rows; else the strategy's rows, or more, up to what the registers
//    hold, where those cover the row loop with tiles that cost at least
//    5 % less, a tile of r rows costing as much as max(r, 3) (a short
//    tile waits on its fused multiply-adds' latency and on its loads):
//    the least cost, the fewest rows among equal costs;
//  - where those rows leave a last tile shorter than 3 rows, tiles of
//    them and of one row fewer that cover the loop exactly, as many of
//    the first as can be (100 rows: 10 tiles of 7 and 5 of 6, not 14 of
//    7 and one of 2), the larger block first (`row_block`).
// With `strategy.fit` false, the strategy's rows and vectors.
TileShape ChooseTileShape(const Strategy& strategy, const TileReads& reads,
                          int64_t lane_vectors, int64_t row_trip);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_TILE_SHAPE_H_
