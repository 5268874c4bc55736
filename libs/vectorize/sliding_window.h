// Sliding windows (the paper's section 3.3): a convolution's filter loop
// unrolled into the register tile of its output positions, so that the
// input element that one output position reads at one tap, the next
// position reads at the tap before, and the tile reads it once.
#ifndef TESSEL_LIBS_VECTORIZE_SLIDING_WINDOW_H_
#define TESSEL_LIBS_VECTORIZE_SLIDING_WINDOW_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "libs/ir/node.h"

namespace tessel::vectorize {

// The window loop of a register tile whose rows are `rows`: the innermost
// loop around `stmt` that does not index the written element, has 2 to
// `max_taps` iterations, and indexes some read in a dimension that `rows`
// indexes too (a convolution's `kw`, beside `ow` in `x[S ow + D kw]`).
// Null when none does. With `keep_order` (`contraction mul-add`, which
// promises the loops' roundings), only a loop with no reduction loop of 2
// or more iterations inside it: the window goes inside the other
// reduction loops, which would otherwise sum each element in another
// order.
ir::Node* WindowLoop(ir::Node& stmt, const ir::Node& rows, int64_t max_taps,
                     bool keep_order);

// One iteration of a register tile: its tap of the window loop, its row
// and its vector.
struct TilePoint {
  int64_t tap = 0;
  int64_t row = 0;
  int64_t vector = 0;
};

// The iterations of a register tile of `taps` x `rows` x `vectors`, in
// the nesting of the three that keeps the fewest reads live at once, a
// read (named by `reads_at`, the same name wherever two points read the
// same vector) live from its first point to its last: what a tile shares
// is then used while in registers. Taps are never innermost when the
// tile has more than one accumulator (consecutive FMAs would wait on each
// other). Ties keep taps, rows, vectors (outermost first).
std::vector<TilePoint> TileOrder(
    int64_t taps, int64_t rows, int64_t vectors,
    absl::FunctionRef<std::vector<std::string>(const TilePoint&)> reads_at);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_SLIDING_WINDOW_H_
