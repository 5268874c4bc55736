// A vectorization strategy (formats/strategy/README.md): how `vectorize`
// tiles, pads or peels, vectorizes and lowers each loop nest. Strategies
// are data: a target gives the default, a file may change any field.
#ifndef TESSEL_LIBS_VECTORIZE_STRATEGY_H_
#define TESSEL_LIBS_VECTORIZE_STRATEGY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel::vectorize {

// What becomes of the iterations of a loop that do not fill a whole tile.
// Whether the panel (a read the rows of the register tile share that the
// loops outside the tile read again: matmul's B) is copied into a dense
// buffer (packed), whose rows are contiguous whatever the tensor's row
// stride, so that no power-of-two stride thrashes a cache set.
enum class Pack {
  kAuto,  // where the tiles read the panel at least `pack_reads` times: a
          // copy costs about two reads (docs/vectorize.md, step 6)
  kYes,   // every panel
  kNo,    // none
};

enum class Tail {
  kPad,   // one more tile; its transfers pad reads and drop writes outside
          // the tensors (legal only where the loop ends at a tensor's end)
  kPeel,  // a scalar loop of their own after the tiles
  kMask,  // one more vector whose transfers are masked to the loop's lanes
          // (create-mask): legal wherever the lanes' values are (no
          // integer division by a masked lane's padding)
};

// How `C += A * B` becomes vector operations.
enum class Contraction {
  kFma,     // one fused multiply-add per lane: one rounding, not two
  kMulAdd,  // a product then a sum: the scalar loop's roundings exactly
};

// Where the progressive lowering of a register tile's contraction stops
// (the paper's section 3.5: contraction -> outer products -> FMAs).
enum class Lowering {
  kContract,      // one contract per vector of the tile and step (rows x 1
                  // times 1 x width), into the outer products' accumulator
  kOuterProduct,  // one outer-product per vector of the tile and step, into
                  // a 2-D accumulator of rows x width lanes
  kFma,           // outer products unrolled into one fma (or product and
                  // sum) per row and vector
};

struct Strategy {
  // Lanes of one vector (the target's register: 16 f32 for AVX-512).
  int64_t width = 16;
  // Vectors per row of the register tile: the vector loop is tiled by
  // width * vectors.
  int64_t vectors = 2;
  // Rows of the register tile: the second parallel loop is tiled by rows,
  // and the rows unrolled, each row's accumulators kept across the
  // reduction loops.
  int64_t rows = 6;
  // Vector registers of the target (32 for AVX-512, 16 for AVX2): what a
  // register tile, its accumulators and the vectors it reads, may fill.
  int64_t registers = 32;
  // Whether each nest's tile is fitted (tile_shape.h): fewer vectors where
  // its reads leave no room in `registers` for `rows` x `vectors`, and
  // rows balanced for its row loop, as the targets' defaults do. Otherwise
  // every tile is `rows` x `vectors`.
  bool fit = false;
  // The most iterations of the cache block: the tile of the innermost
  // reduction loop of a lane-vectorized reduce (matmul's k), its tile loop
  // outermost, so that what the register tiles read between two writes of
  // their accumulators stays in cache. The block is the largest that keeps
  // the panel the tiles of rows share within half of `l2`, at most this
  // (cache_blocks.h); the default bounds it by the cache alone.
  int64_t depth = int64_t{1} << 30;
  Tail tail = Tail::kPad;
  Contraction contraction = Contraction::kFma;
  Lowering lowering = Lowering::kFma;
  // Choices for loops named in the input, applied to each nest that has
  // them before its register tile: `tile LOOP SIZE` divides LOOP by SIZE
  // (one entry per loop, in file order), `interchange LOOP...` puts the
  // loops it names, in its order, inside the nest's other loops.
  std::vector<std::pair<std::string, int64_t>> tiles = {};
  std::vector<std::string> interchange = {};
  // Which panels are copied, per tile of lanes and cache block, into a
  // dense buffer of their own that all tiles of rows then read.
  Pack pack = Pack::kAuto;
  // With `pack auto`, the fewest reads of a panel by the loops outside the
  // tile for which it is packed: what a read in place costs against a
  // read of the copy, a property of the machine's caches more than of
  // the instructions (docs/vectorize.md, step 6).
  int64_t pack_reads = 64;
  // Unless `pack no`, the least distance in bytes between the lines one
  // tile of lanes reads of a read the rows share that is no panel (a
  // depthwise layer's filter, its taps a row of channels apart) along
  // each other loop that indexes it for which that read is packed by
  // tiles of lanes, once before the nest, each tile's taps on consecutive
  // lines, in a nest whose rows read vectors of their own; 0 never
  // (docs/vectorize.md, step 6).
  int64_t pack_taps = 0;
  // The most bytes of a packed panel (a convolution's filter) that is
  // packed whole, once, laid out by tiles of lanes, with the lanes' tile
  // loop inside the rows' other loops, where the rows' own read (the
  // convolution's input) outgrows `l2`: packed tile by tile with that
  // loop outermost, the panel stays in the L2 but the input is read from
  // the L3 or memory once per tile of lanes (docs/vectorize.md, step 6).
  // 0 never.
  int64_t pack_whole = 0;
  // The most iterations of a window loop (a reduction loop that indexes a
  // read in a dimension the rows index too: a convolution's filter width)
  // unrolled into the register tile, so that the element one row reads at
  // one tap, the next row reads at the tap before, read once (a sliding
  // window, the paper's section 3.3). 1, the default, unrolls none: the
  // unrolled tiles measured slower in emit-c's C but for strided
  // depthwise convolutions (docs/vectorize.md, "Convolutions").
  int64_t window = 1;
  // Bytes of one core's L2 cache, which the cache blocks are sized for
  // (cache_blocks.h): the development machine's 1 MiB.
  int64_t l2 = int64_t{1} << 20;
  // Bytes of the L3 cache that one core's data may count on, which bounds
  // the cache block by the strip of a read packed by tiles of rows that
  // every tile of lanes reads again (cache_blocks.h): the development
  // machine's 32 MiB.
  int64_t l3 = int64_t{32} << 20;
  // How far ahead, in the register tile's fused multiply-adds (rows x
  // vectors a step), each step prefetches the lines of the reads the rows
  // share that it reads out of sequence (a filter's rows 2 KiB apart): the
  // steps ahead are this over the tile's multiply-adds per step. 0 none.
  // The distance covers a read from the L3, which the hardware prefetchers
  // do not start for such strides (docs/vectorize.md, step 6).
  int64_t prefetch = 0;
  // How many rows ahead each step of a packing copy whose rows lie apart
  // (a filter's 64 bytes of each 2 KiB row, copied for a tile of lanes)
  // prefetches the row it will copy (prefetch.h, PrefetchCopies): such a
  // copy waits on the L3 at every row otherwise. 0 none.
  int64_t prefetch_copies = 0;
  // The fewest bytes of a data parameter that a proc writes and never
  // reads for which its register tiles' rows are written with streaming
  // stores, which do not read the lines into the caches first
  // (streaming_writes.h); 0 never. Below the L2, where the output stays
  // in cache for its reader, they are much slower.
  int64_t nontemporal = 0;
  // The most columns of a dot tile (dot_tile.h): a contraction's lane loop
  // of at most this many lanes (the columns past a matmul's last whole
  // vector) becomes dot products along its reduction loop, whose vectors
  // run at the full width, instead of vectors of its few lanes. A power of
  // two; a tile takes at most a quarter of the width in columns. 0, the
  // default, none.
  int64_t dot = 0;
};

// The default strategy of a target: "avx512" or "avx2".
absl::StatusOr<Strategy> DefaultStrategy(absl::string_view target);

// `base` with the fields `text` sets (formats/strategy/README.md); errors
// name `path` and the line.
absl::StatusOr<Strategy> ParseStrategy(absl::string_view text,
                                       absl::string_view path,
                                       Strategy base);

// The strategy as its file's text (every field), for --help and tests.
std::string PrintStrategy(const Strategy& strategy);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_STRATEGY_H_
