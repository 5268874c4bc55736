#include "libs/vectorize/vectorize.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/types/span.h"
#include "libs/ir/build.h"
#include "libs/ir/cursor.h"
#include "libs/ir/edit.h"
#include "libs/ir/views.h"
#include "libs/primitives/divide_loop.h"
#include "libs/primitives/eliminate_dead_code.h"
#include "libs/primitives/fission.h"
#include "libs/primitives/fuse.h"
#include "libs/primitives/linear_form.h"
#include "libs/primitives/primitive.h"
#include "libs/primitives/reorder_loops.h"
#include "libs/primitives/stage_mem.h"
#include "libs/primitives/unroll_loop.h"
#include "libs/support/source.h"
#include "libs/vectorize/cache_blocks.h"
#include "libs/vectorize/dot_tile.h"
#include "libs/vectorize/fill.h"
#include "libs/vectorize/kernel.h"
#include "libs/vectorize/lane_vectors.h"
#include "libs/vectorize/layout.h"
#include "libs/vectorize/nest.h"
#include "libs/vectorize/prefetch.h"
#include "libs/vectorize/read_strides.h"
#include "libs/vectorize/repeated_copies.h"
#include "libs/vectorize/sliding_window.h"
#include "libs/vectorize/streaming_writes.h"
#include "libs/vectorize/tile_shape.h"
#include "libs/vectorize/transpose.h"
#include "libs/verify/verifier.h"

namespace tessel::vectorize {
namespace {

// A primitive's rejection, at the statement whose nest it rewrote.
absl::Status Rejected(const ir::Node& stmt, absl::string_view what,
                      const absl::Status& status) {
  return absl::FailedPreconditionError(FormatDiagnostic(
      stmt.loc(),
      absl::StrCat("cannot vectorize: ", what, ": ", status.message())));
}

absl::Status Reverify(ir::Module& module, ir::Node& proc) {
  absl::Status status = ir::VerifyProc(module, proc, primitives::kEditChecks);
  if (!status.ok()) {
    return absl::InternalError(absl::StrCat(
        "vectorize made a procedure that does not verify (a bug): ",
        status.message()));
  }
  return absl::OkStatus();
}

// The loop around `stmt` named `name`.
ir::Node* LoopNamed(const ir::Node& stmt, const std::string& name) {
  for (ir::Node* loop : LoopsOf(stmt)) {
    if (loop->name() == name) return loop;
  }
  return nullptr;
}

// The bytes of one way of the L1 (32 KiB in 8 ways, 48 KiB in 12): lines
// this far apart fall in the same set.
constexpr int64_t kL1WayBytes = 4096;

// The bytes of a cache line.
constexpr int64_t kLineBytes = 64;

// The bytes of the L1 of the targets' cores (32 KiB on AMD's Zen 4, 48
// on Intel's Ice Lake and later): the least.
constexpr int64_t kL1Bytes = 32768;

// The fewest sets of the L1 among which the rows of a tile that read
// vectors of their own must spread (one line each): in fewer, the lines
// of a tile's rows and taps evict each other (docs/vectorize.md,
// "Convolutions").
constexpr int64_t kLeastRowSets = 4;

// The fewest bytes of each row that one staged copy of a crowded read
// (below) takes: four lines of a row that lie a page apart, where one
// line at a time made the copy wait on each (AVX2's tiles of 16 f32
// channels; docs/vectorize.md, "Convolutions").
constexpr int64_t kLeastStagedRowBytes = 4 * kLineBytes;

// The tiles of lanes, at most `trip` of them, that one staged copy of
// `read` serves so that it copies kLeastStagedRowBytes of each row: the
// smallest divisor of `trip` that many tiles of `lanes` reach, else 1.
int64_t StagedTiles(ir::Node& read, const ir::Node& lanes, int64_t trip) {
  const int64_t row_bytes =
      TripOf(lanes) * ReadStrideBytes(read, lanes).value_or(0);
  if (row_bytes <= 0 || row_bytes >= kLeastStagedRowBytes) return 1;
  for (int64_t tiles = 2; tiles <= trip; ++tiles) {
    if (trip % tiles == 0 && tiles * row_bytes >= kLeastStagedRowBytes) {
      return tiles;
    }
  }
  return 1;
}

// Whether the rows of `read`, which `rows` indexes, lie in fewer than
// kLeastRowSets sets of the L1: rows a multiple of 2 KiB apart (a
// depthwise convolution of 512 or 1024 channels) share one set in two, or
// all one set. A read whose stride is not a constant is taken to spread.
bool RowsCrowdL1Sets(ir::Node& read, const ir::Node& rows) {
  std::optional<int64_t> stride = ReadStrideBytes(read, rows);
  if (!stride.has_value() || *stride == 0) return false;
  return kL1WayBytes / std::gcd(*stride, kL1WayBytes) < kLeastRowSets;
}

class NestVectorizer {
 public:
  NestVectorizer(ir::Module& module, ir::Node& proc, const Strategy& strategy,
                 LanesCopies& lanes_copies)
      : module_(module),
        proc_(proc),
        strategy_(strategy),
        lanes_copies_(lanes_copies) {}

  // Vectorizes the nest of the statement `nest` points at; the statements
  // of the nests its tiling peels off are added to `pending`, and why it
  // stays scalar, if it does for its shape, to `notes`.
  absl::Status Run(const ir::Cursor& nest, std::vector<ir::Cursor>& pending,
                   std::vector<std::string>& notes) {
    // The statement; unrolling a loop around it copies it.
    ir::Cursor stmt = nest;
    // A fill the strategy's loop choices would move loops across stays a
    // nest of its own.
    if (ir::Node* fill = FillOf(*stmt.node());
        fill != nullptr && NamesALoop(*stmt.node())) {
      return SplitFillOff(*fill, stmt, pending);
    }
    if (absl::Status status = ApplyLoopChoices(stmt, pending); !status.ok()) {
      return status;
    }
    // A nest of dot tiles, before the copies for the lanes, which would
    // move the columns' dimension of its column read last again.
    if (std::optional<DotNest> dot = DotNestOf(*stmt.node(), strategy_)) {
      auto plan = PlanNest(proc_, *stmt.node());
      if (!plan.ok() &&
          plan.status().code() != absl::StatusCode::kUnimplemented) {
        return plan.status();
      }
      if (plan.ok()) return Dot(stmt, *dot, pending);
    }
    auto copied =
        CopyReadsForLanes(module_, proc_, *stmt.node(), lanes_copies_);
    if (!copied.ok()) return copied.status();
    if (*copied) {
      if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
        return status;
      }
    }
    auto plan = PlanNest(proc_, *stmt.node());
    if (!plan.ok() && plan.status().code() != absl::StatusCode::kUnimplemented) {
      return plan.status();
    }
    // The lanes past the last whole vector, where they can be dot tiles
    // (dot_tile.h), are cut off into a nest of their own first, whose tiles
    // then take rows of their own; a nest of more lanes than a dot tile
    // takes is divided into dot tiles of the most columns and the rest
    // (6 columns: 4, then 2; 3 are one nest, its blocks of 4 masked).
    // Either is planned again.
    if (plan.ok() && plan->mode == Mode::kLanes) {
      const std::string lanes = plan->vector_loop->name();
      const int64_t trip = TripOf(*plan->vector_loop);
      const int64_t past = trip % strategy_.width;
      const int64_t columns = DotColumns(*stmt.node(), past);
      if (columns != 0 && trip > strategy_.width) {
        auto names = Divide(stmt, lanes, trip - past, pending);
        if (!names.ok()) return names.status();
        return Run(stmt, pending, notes);
      }
      if (columns != 0 && columns < trip) {
        auto names = Divide(stmt, lanes, columns, pending);
        if (!names.ok()) return names.status();
        return Run(stmt, pending, notes);
      }
      // Where no dot tile takes them, such lanes may take whole vectors
      // along the rows instead (RowsGiveLanes), cut off the same way.
      if (columns == 0 && past != 0 &&
          RowsGiveLanes(*stmt.node(), *plan, past)) {
        if (trip > strategy_.width) {
          auto names = Divide(stmt, lanes, trip - past, pending);
          if (!names.ok()) return names.status();
          return Run(stmt, pending, notes);
        }
        return StageRowsLast(stmt, *plan, pending);
      }
    }
    // A lane loop shorter than one vector (the remainder of the lanes'
    // tiles: 200 columns are 3 tiles of 64 and one of 8) takes narrower
    // vectors (NarrowWidth), whose transfers read and write whole vectors
    // where padded ones would move lane by lane (the 200^3 matmul ran at
    // 68 GFLOP/s with its last 8 columns padded to 16, 112 with them in a
    // vector of 8).
    // (Unless it is one partial vector, LaneVectors' `partial_tail`.)
    if (plan.ok() && plan->mode != Mode::kTranspose) {
      const int64_t trip = TripOf(*plan->vector_loop);
      const int64_t width = NarrowWidth(trip);
      if (width < strategy_.width &&
          !(PartialTail(*plan) && FillsPartialVector(trip, strategy_.width))) {
        Strategy narrow = strategy_;
        narrow.width = width;
        return NestVectorizer(module_, proc_, narrow, lanes_copies_)
            .RunPlanned(stmt, plan, pending, notes);
      }
    }
    return RunPlanned(stmt, plan, pending, notes);
  }

 private:
  // Run's work once the nest of `stmt` is planned (`plan`, or why not).
  absl::Status RunPlanned(ir::Cursor stmt,
                          const absl::StatusOr<NestPlan>& plan,
                          std::vector<ir::Cursor>& pending,
                          std::vector<std::string>& notes) {
    const TileShape shape = plan.ok() ? ShapeOf(*stmt.node(), *plan)
                                      : TileShape{strategy_.rows,
                                                  strategy_.vectors};
    // A read that steps of the reduction read a line of per tile of rows
    // is packed by tiles of rows, and the cache block need not keep its
    // lines in the L2; so is a row loop of one tile (the last 4 rows of
    // 1024, a nest of their own), which the tiles of lanes read alike.
    bool rows_packed = false;
    if (plan.ok() && plan->mode == Mode::kLanes &&
        stmt.node()->is(ir::Op::kReduce) && plan->row_loop != nullptr &&
        TripOf(*plan->row_loop) >= shape.rows) {
      const RowsRead rows_read = RowsTiledRead(*stmt.node(), *plan->row_loop,
                                               *plan->vector_loop, shape.rows);
      rows_packed = rows_read.read != nullptr &&
                    PacksByTiles(*stmt.node(), rows_read,
                                 TripOf(*plan->vector_loop) /
                                     (strategy_.width * shape.vectors));
    }
    // The accumulators start from the fill only in the lanes' register
    // tile, whose reduction loops are not blocked by `depth`: the cache
    // block's loop goes outside the tile's loops, and each block but the
    // first adds to what the one before wrote.
    if (ir::Node* fill = FillOf(*stmt.node());
        fill != nullptr &&
        (!plan.ok() || plan->mode != Mode::kLanes ||
         DepthBlocked(*stmt.node(), *plan->vector_loop, shape.vectors,
                      plan->row_loop != nullptr, rows_packed) ||
         !FillVectorizes(*fill, *plan->vector_loop))) {
      return SplitFillOff(*fill, stmt, pending);
    }
    const bool fill_kept = FillOf(*stmt.node()) != nullptr;
    if (!plan.ok()) {
      notes.emplace_back(plan.status().message());
      return absl::OkStatus();
    }
    if (plan->mode == Mode::kTranspose) return Transpose(stmt, *plan, pending);
    std::string lanes = plan->vector_loop->name();
    // Unrolled rows pay for an assign only when they share a read (one the
    // lanes index and the rows do not, or the value of a fill): a copy's
    // rows are streams of their own, more of them than the prefetchers
    // follow.
    std::string rows = plan->row_loop != nullptr &&
                               (stmt.node()->is(ir::Op::kReduce) ||
                                RowsShareARead(*stmt.node(), *plan))
                           ? plan->row_loop->name()
                           : std::string();
    std::string rows_outer, lanes_outer;
    if (!rows.empty() && TripOf(*plan->row_loop) > shape.rows) {
      // Tiles of two sizes (TileShape::row_block): the first block's rows
      // are cut off (one tile, unrolled), the others a nest of their own.
      if (shape.row_block != 0) {
        auto block = Divide(stmt, rows, shape.row_block, pending);
        if (!block.ok()) return block.status();
        rows = block->second;
      }
      auto names = Divide(stmt, rows, shape.rows, pending);
      if (!names.ok()) return names.status();
      rows_outer = names->first;
      rows = names->second;
    }
    // The lanes' tile. A lane loop whose whole vectors, narrower ones
    // included (LaneVectors), are no more than the tile's is one tile of
    // them: 36 lanes are two vectors of 16 and one of 4, which share the
    // tile's broadcasts (100^3's last 4 columns, a nest of 7 x 4 lanes of
    // their own, ran at 80 % of a half vector's rate). The lanes past its
    // whole vectors, and those of a reduction loop past its vectors of
    // the full width (whose partial sums are added lane by lane), are a
    // nest of their own (Run narrows it). A partial vector (of a loop
    // shorter than the narrowest, or of a rest of most of a vector,
    // LaneVectors): padded, or masked to the loop's lanes.
    const bool pad = TailMayRun(*plan);
    int64_t trip = TripOf(*LoopNamed(*stmt.node(), lanes));
    int64_t tile = strategy_.width * shape.vectors;
    const std::vector<LaneVector> vectors =
        LaneVectors(trip, strategy_.width, PartialTail(*plan));
    if (plan->mode == Mode::kLanes &&
        static_cast<int64_t>(vectors.size()) <= shape.vectors &&
        trip >= kNarrowestVector) {
      tile = std::min(trip, vectors.back().first + vectors.back().width);
    } else if (trip <= tile && trip > strategy_.width) {
      tile = trip - trip % strategy_.width;
    }
    if (trip > tile) {
      auto names = Divide(stmt, lanes, tile, pending);
      if (!names.ok()) return names.status();
      lanes_outer = names->first;
      lanes = names->second;
    }
    // The cache block: the innermost reduction loop of a lane-vectorized
    // reduce tiled so that the panel the tiles of rows share (a tile of
    // lanes per step of it and of the reduction loops inside the block)
    // stays in the L2.
    std::string depth_outer;
    if (plan->mode == Mode::kLanes && stmt.node()->is(ir::Op::kReduce)) {
      const ir::Node& lanes_loop = *LoopNamed(*stmt.node(), lanes);
      CacheBlock block = BlockOf(*stmt.node(), lanes_loop, TripOf(lanes_loop),
                                 lanes_outer.empty() ? 0 : TripOf(lanes_loop),
                                 !rows.empty(), rows_packed);
      if (block.loop != nullptr && TripOf(*block.loop) > block.depth) {
        if (fill_kept) {
          return absl::InternalError(
              "vectorize kept a fill with a reduction it blocks (a bug)");
        }
        auto names = Divide(stmt, block.loop->name(), block.depth, pending);
        if (!names.ok()) return names.status();
        depth_outer = names->first;
      }
    }
    // Partial vectors need padding; without it, this nest stays scalar.
    if (const int64_t lanes_trip = TripOf(*LoopNamed(*stmt.node(), lanes));
        WholeLanes(lanes_trip, strategy_.width) != lanes_trip && !pad) {
      return absl::OkStatus();
    }
    // The window loop of a lane-vectorized reduce, unrolled into the tile
    // under the other reduction loops: its taps and rows share reads.
    std::string window;
    // A read whose rows crowd the L1's sets (RowsCrowdL1Sets), with `shape
    // fit`: its window is unrolled, and it is staged (below).
    const ir::Node* crowded = nullptr;
    if (plan->mode == Mode::kLanes && stmt.node()->is(ir::Op::kReduce) &&
        !rows.empty()) {
      const ir::Node& row_loop = *LoopNamed(*stmt.node(), rows);
      if (strategy_.fit) {
        crowded = CrowdedRead(*stmt.node(), row_loop,
                              *LoopNamed(*stmt.node(), lanes));
      }
      const int64_t taps = crowded != nullptr
                               ? std::numeric_limits<int64_t>::max()
                               : strategy_.window;
      if (const ir::Node* loop = WindowLoop(*stmt.node(), row_loop, taps);
          loop != nullptr &&
          MayMoveReduction(*stmt.node(), *loop, /*outermost=*/false)) {
        window = loop->name();
      }
    }
    // The panel: a read the rows share (matmul's B, a convolution's
    // filter) too large for the L2 that parallel loops outside the tile
    // read again. The loops that index it go outside those loops, with the
    // cache block's loop outermost, so that each tile of it is read from
    // memory once and then stays in the L2 while every tile of rows, every
    // output row, reads it; packing copies it there into a dense buffer.
    // Without one, the tiles of rows stay outermost: each keeps its rows of
    // the other factor in L1 across the tiles of lanes, and the shared
    // tensor, small, stays in the L2.
    const PanelRead panel_read =
        plan->mode == Mode::kLanes && stmt.node()->is(ir::Op::kReduce)
            ? Panel(*stmt.node(), rows_outer, rows, lanes)
            : PanelRead{};
    const ir::Node* panel = panel_read.read;
    // A copy of the panel costs about two reads of it (its loads and
    // stores); it pays where the tiles read the copy often enough, which
    // depends on what a read in place costs on the machine (`pack_reads`).
    const bool pack =
        panel != nullptr && (strategy_.pack == Pack::kYes ||
                             (strategy_.pack == Pack::kAuto &&
                              panel_read.times >= strategy_.pack_reads));
    // A panel read in place fewer times than a copy pays for spends much
    // of its time in its first pass, which reads it from the L3 at a
    // stride the hardware prefetchers do not follow: its lines are
    // prefetched (prefetch.h; the 9 x 9 x 512 layer's filter, read by 7
    // output rows: 0.74-0.94x oneDNN without, 0.98-1.02x with; a layer
    // whose filter stays in the L2 ran 1-2 % slower with).
    const ir::Node* prefetched =
        panel != nullptr && !pack && panel_read.times < strategy_.pack_reads
            ? ir::LoadView(const_cast<ir::Node&>(*panel)).buffer()
            : nullptr;
    // The strategy's `tile` loops stay outside the panel's.
    const bool panel_outside = panel != nullptr && strategy_.tiles.empty();
    // A packed panel of at most `pack_whole` bytes whose rows' own read
    // (a convolution's input) outgrows the L2 is packed whole, once, by
    // tiles of lanes, and the lanes' tile loop goes inside the rows' other
    // loops: packed tile by tile with that loop outermost, the input would
    // be read from the L3 or memory once per tile of lanes (AVX2, the 5 x
    // 82 x 102 x 128 layer: 9-16 % faster; docs/vectorize.md, step 6).
    const std::optional<int64_t> whole_dim =
        pack && panel_outside && depth_outer.empty() && !rows_packed &&
                !lanes_outer.empty() && !rows.empty()
            ? WholePanelDim(*stmt.node(), *panel, lanes, lanes_outer, rows)
            : std::nullopt;
    // A crowded read is staged into a dense buffer once per tile of
    // lanes, whose loop goes outermost, where that buffer fits the L1: the
    // rows and taps of the tile then read lines one vector apart, which
    // stay in the L1 while the rows that share them run (a depthwise layer
    // of 9 x 9 x 1024 ran at 36 GFLOP/s in place, 50 staged in blocks of
    // 20 KiB; 16 x 16 x 512 at 68 in place, 53-55 staged in blocks of 64
    // KiB).
    const bool stage_crowded =
        crowded != nullptr && panel == nullptr && strategy_.tiles.empty() &&
        !lanes_outer.empty() &&
        TensorBytes(*ir::LoadView(const_cast<ir::Node&>(*crowded)).buffer())
                    .value_or(std::numeric_limits<int64_t>::max()) /
                TripOf(*LoopNamed(*stmt.node(), lanes_outer)) <=
            kL1Bytes;
    // Tiles of lanes narrower than kLeastStagedRowBytes share a copy: the
    // lanes' tile loop is divided, its outer loop goes outermost and the
    // copy inside it (a 9 x 9 x 1024 depthwise layer on AVX2, tiles of 16
    // channels: 19 GFLOP/s copied per tile, 22-25 per 4 tiles).
    std::string stage_block;
    if (stage_crowded) {
      ir::Node& tile_loop = *LoopNamed(*stmt.node(), lanes_outer);
      const int64_t tiles =
          StagedTiles(const_cast<ir::Node&>(*crowded),
                      *LoopNamed(*stmt.node(), lanes), TripOf(tile_loop));
      if (tiles > 1) {
        auto names = Divide(stmt, lanes_outer, tiles, pending);
        if (!names.ok()) return names.status();
        stage_block = names->first;
        lanes_outer = names->second;
        // Dividing rewrote the read's indices.
        crowded = CrowdedRead(*stmt.node(), *LoopNamed(*stmt.node(), rows),
                              *LoopNamed(*stmt.node(), lanes));
        if (crowded == nullptr) {
          return absl::InternalError(
              "vectorize lost the crowded read it stages (a bug)");
        }
      }
    }
    // The order: the other parallel loops, the cache block's loop, the
    // tile loops, the reduction loops, then the register tile (window,
    // rows, lanes).
    auto rank = [&](const ir::Node& loop) {
      const std::string& name = loop.name();
      if (name == lanes) return 7;
      if (name == rows) return 6;
      if (name == window) return 5;
      if (whole_dim.has_value() && name == lanes_outer) return 1;
      if (panel_outside) {
        if (name == depth_outer) return -2;
        if (WritesIndexedBy(*stmt.node(), loop) && Indexes(*panel, loop)) {
          return -1;
        }
      }
      if (stage_crowded && (name == stage_block || name == lanes_outer)) {
        return -1;
      }
      if (name == depth_outer) return 1;
      if (name == rows_outer) return pack ? 3 : 2;
      if (name == lanes_outer) return plan->mode == Mode::kLanes ? 2 : 4;
      return WritesIndexedBy(*stmt.node(), loop) ? 0 : 4;
    };
    // The fill goes with the register tile's loops, its other loops
    // ordered as the reduction's, before the reduction loops.
    ir::Cursor fill;
    if (ir::Node* node = FillOf(*stmt.node()); node != nullptr) {
      fill = ir::Cursor(module_, node);
      if (absl::Status status = Interchange(fill, rank); !status.ok()) {
        return status;
      }
      std::vector<ir::Node*> around = LoopsOf(*fill.node());
      int64_t lifts = 0;
      while (lifts < static_cast<int64_t>(around.size()) &&
             rank(*around[around.size() - 1 - lifts]) >= 6) {
        ++lifts;
      }
      auto split = primitives::Fission(module_, fill.after(), lifts);
      if (!split.ok()) {
        return Rejected(*stmt.node(), "splitting its fill", split.status());
      }
      if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
        return status;
      }
    }
    if (absl::Status status = Interchange(stmt, rank); !status.ok()) {
      return status;
    }
    if (pack) {
      auto packed =
          whole_dim.has_value()
              ? PackTiled(stmt, *panel, *whole_dim,
                          TripOf(*LoopNamed(*stmt.node(), lanes)), "lanes")
              : Pack(stmt, *panel);
      if (!packed.ok()) return packed.status();
    }
    if (stage_crowded) {
      const ir::Node* block_loop = LoopNamed(
          *stmt.node(), stage_block.empty() ? lanes_outer : stage_block);
      if (auto staged = Pack(stmt, *crowded, block_loop); !staged.ok()) {
        return staged.status();
      }
      for (const std::string& tensor : CrowdedTaps(
               *stmt.node(), *block_loop, *LoopNamed(*stmt.node(), rows),
               *LoopNamed(*stmt.node(), lanes))) {
        const ir::Node* read = ReadOf(*stmt.node(), tensor);
        if (read == nullptr) {
          return absl::InternalError(
              "vectorize lost a read of taps it stages (a bug)");
        }
        if (auto staged = Pack(stmt, *read, block_loop); !staged.ok()) {
          return staged.status();
        }
      }
    }
    if (!stage_crowded && panel == nullptr) {
      if (absl::Status status = PackTapsByTiles(stmt, lanes, lanes_outer, rows);
          !status.ok()) {
        return status;
      }
    }
    if (rows_packed) {
      const RowsRead rows_read =
          RowsTiledRead(*stmt.node(), *LoopNamed(*stmt.node(), rows),
                        *LoopNamed(*stmt.node(), lanes), shape.rows);
      if (rows_read.read == nullptr) {
        return absl::InternalError(
            "vectorize lost the read it packs by tiles of rows (a bug)");
      }
      if (auto packed = PackTiled(stmt, *rows_read.read, rows_read.dim,
                                  shape.rows, "rows");
          !packed.ok()) {
        return packed.status();
      }
    }
    if (absl::Status status = PackLanesCopy(stmt, lanes_outer); !status.ok()) {
      return status;
    }
    TileLoops loops;
    loops.lanes = LoopNamed(*stmt.node(), lanes);
    loops.rows = rows.empty() ? nullptr : LoopNamed(*stmt.node(), rows);
    loops.window = window.empty() ? nullptr : LoopNamed(*stmt.node(), window);
    loops.fill = fill.node();
    loops.prefetched = prefetched;
    loops.partial_tail = PartialTail(*plan);
    for (ir::Node* loop : LoopsOf(*stmt.node())) {
      if (rank(*loop) >= 4) {
        loops.hoist = loop;
        break;
      }
    }
    if (absl::Status status =
            EmitKernel(module_, proc_, *stmt.node(), *plan, loops, strategy_);
        !status.ok()) {
      return status;
    }
    return Reverify(module_, proc_);
  }

  // Whether the lanes past the end of the vector loop of the nest `plan`
  // plans may run, as the strategy's `tail` says: padded or masked.
  bool TailMayRun(const NestPlan& plan) const {
    return (plan.paddable && strategy_.tail == Tail::kPad) ||
           (plan.maskable && strategy_.tail == Tail::kMask);
  }

  // LaneVectors' `partial_tail` for the nest `plan` plans: lanes, whose
  // last lanes may run.
  bool PartialTail(const NestPlan& plan) const {
    return plan.mode == Mode::kLanes && TailMayRun(plan);
  }

  // The most columns, at most `lanes`, that make the nest of `stmt` a
  // nest of dot tiles (DotNestOf: their block, a power of two of columns,
  // at most the strategy's `dot`); 0 for none, and for `lanes` of half a
  // vector or more, which a vector of half the width runs at half the FMA
  // unit's rate or better.
  int64_t DotColumns(ir::Node& stmt, int64_t lanes) const {
    if (lanes * 2 >= strategy_.width) return 0;
    for (int64_t columns = std::min(lanes, strategy_.dot); columns >= 1;
         columns = DotSlots(columns) / 2) {
      if (DotNestOf(stmt, strategy_, columns).has_value()) return columns;
    }
    return 0;
  }

  // Whether `lanes` lanes of the nest of `stmt` (`plan`'s: fewer than a
  // vector, the columns past a matmul's last whole vector) are better
  // computed with its rows as the lanes: where the rows are at least a
  // vector long and every read they index holds them contiguously (in its
  // last dimension only, with coefficient 1) and is not indexed by the
  // lanes, one read at least (a TN matmul's A[k, i] for C[i, j]). Its
  // vectors are then of the full width, where along the columns each row
  // would take vectors of 8 or 4 lanes, some of them padding (2 columns:
  // a vector of 4). Not for lanes that are one partial vector of the tile
  // (FillsPartialVector), nor for a vector of half the width, whose
  // multiply-adds run at the FMA unit's full rate (TN 1000^3, whose last
  // 8 columns are such a vector, ran at 104 GFLOP/s with it, 96 with the
  // rows as lanes).
  bool RowsGiveLanes(ir::Node& stmt, const NestPlan& plan,
                     int64_t lanes) const {
    if (!stmt.is(ir::Op::kReduce) || plan.mode != Mode::kLanes ||
        plan.row_loop == nullptr || 2 * lanes == strategy_.width ||
        !primitives::IsStageable(*ir::LoadView(*stmt.operand(0)).buffer()) ||
        TripOf(*plan.row_loop) < strategy_.width ||
        (PartialTail(plan) && FillsPartialVector(lanes, strategy_.width))) {
      return false;
    }
    const int64_t written = UnitDims(*stmt.operand(0), *plan.row_loop);
    if (written <= 0 || (written & (written - 1)) != 0) return false;
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    bool contiguous = false;
    for (ir::Node* read : reads) {
      const int64_t rows = UnitDims(*read, *plan.row_loop);
      if (rows == 0) continue;
      const int64_t last = int64_t{1}
                           << (ir::LoadView(*read).indices().size() - 1);
      if (rows != last || UnitDims(*read, *plan.vector_loop) != 0) {
        return false;
      }
      contiguous = true;
    }
    return contiguous;
  }

  // The nest of `stmt` (RowsGiveLanes) with the tensor it writes staged
  // over it, the rows' dimension last: the nest then writes along the
  // rows. A fill is split off for stage_mem, so that the copy starts from
  // it and not from the tensor, and fused back, so that the tile's
  // accumulators start from it. The copy's statements (the copy in, if
  // any, the nest, the copy out) are vectorized as nests of their own.
  absl::Status StageRowsLast(ir::Cursor& stmt, const NestPlan& plan,
                             std::vector<ir::Cursor>& pending) {
    const int64_t dim = std::countr_zero(static_cast<uint64_t>(
        UnitDims(*stmt.node()->operand(0), *plan.row_loop)));
    ir::Cursor last(module_, LoopsOf(*stmt.node()).front());
    ir::Cursor first = last;
    ir::Cursor fill;
    if (ir::Node* node = FillOf(*stmt.node())) {
      fill = ir::Cursor(module_, node);
      auto split = primitives::Fission(
          module_, fill.after(), static_cast<int64_t>(LoopsOf(*node).size()));
      if (!split.ok()) {
        return Rejected(*fill.node(), "splitting the fill off", split.status());
      }
      first = ir::Cursor(module_, LoopsOf(*fill.node()).front());
      last = ir::Cursor(module_, LoopsOf(*stmt.node()).front());
    }
    auto alloc =
        StageWithDimLast(module_, proc_, *stmt.node(), *stmt.node()->operand(0),
                         ir::BlockCursor(first, last), dim, "_rows");
    if (!alloc.ok()) return alloc.status();
    if (fill.is_valid()) {
      const size_t depth = LoopsOf(*fill.node()).size();
      for (size_t level = 0; level < depth; ++level) {
        ir::Cursor loop(module_, LoopsOf(*fill.node())[level]);
        if (auto fused = primitives::Fuse(module_, loop, loop.next());
            !fused.ok()) {
          return Rejected(*fill.node(), "fusing the fill back", fused.status());
        }
      }
    }
    if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
      return status;
    }
    ir::Walk(proc_, [&](ir::Node& node) {
      if ((node.is(ir::Op::kAssign) || node.is(ir::Op::kReduce)) &&
          &node != fill.node() && Accesses(node, **alloc)) {
        pending.emplace_back(module_, &node);
      }
    });
    return absl::OkStatus();
  }

  // Whether the statement `stmt` writes or reads an element of `buffer`.
  static bool Accesses(ir::Node& stmt, const ir::Node& buffer) {
    std::vector<ir::Node*> loads = {stmt.operand(0)};
    LoadsIn(*stmt.operand(1), loads);
    return absl::c_any_of(loads, [&](ir::Node* load) {
      return load->is(ir::Op::kLoad) && ir::LoadView(*load).buffer() == &buffer;
    });
  }

  // The nest of dot tiles `nest` of `stmt` (dot_tile.h): its fill split
  // off, its column read copied with the reduction's dimension last, its
  // rows tiled by the tile's (the rest a nest of its own, which reads the
  // same copy and takes a tile of fewer rows), and the rows, columns and
  // reduction loops innermost, in that order, made a tile.
  absl::Status Dot(ir::Cursor& stmt, const DotNest& nest,
                   std::vector<ir::Cursor>& pending) {
    if (ir::Node* fill = FillOf(*stmt.node());
        fill != nullptr && !DotKeepsFill(*fill)) {
      return SplitFillOff(*fill, stmt, pending);
    }
    if (nest.column_read_dim + 1 !=
        static_cast<int64_t>(
            ir::LoadView(*nest.column_read).indices().size())) {
      if (absl::Status status =
              CopyWithDimLast(module_, proc_, *stmt.node(), *nest.column_read,
                              nest.column_read_dim, "_dot", pending);
          !status.ok()) {
        return status;
      }
      if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
        return status;
      }
    }
    std::optional<DotNest> tiled = DotNestOf(*stmt.node(), strategy_);
    if (!tiled.has_value()) {
      return absl::InternalError("vectorize lost a dot nest (a bug)");
    }
    const int64_t rows = DotRows(TripOf(*tiled->columns), strategy_);
    if (TripOf(*tiled->rows) > rows) {
      auto names = Divide(stmt, tiled->rows->name(), rows, pending);
      if (!names.ok()) return names.status();
      tiled = DotNestOf(*stmt.node(), strategy_);
      if (!tiled.has_value()) {
        return absl::InternalError("vectorize lost a dot nest (a bug)");
      }
    }
    // Rows, columns, then the reduction innermost; the other loops keep
    // their order outside them. (By name: reorder_loops rebuilds the loops
    // it swaps.)
    const std::string inner[] = {tiled->rows->name(), tiled->columns->name(),
                                 tiled->reduction->name()};
    auto rank = [&](const ir::Node& loop) {
      const auto* at =
          std::find(std::begin(inner), std::end(inner), loop.name());
      return at == std::end(inner) ? 0 : 1 + (at - std::begin(inner));
    };
    if (absl::Status status = Interchange(stmt, rank); !status.ok()) {
      return status;
    }
    if (absl::Status status =
            EmitDotTile(module_, proc_, *stmt.node(), strategy_);
        !status.ok()) {
      return status;
    }
    return Reverify(module_, proc_);
  }

  // The strategy's choices for the nest's loops of the names it gives:
  // the loops `interchange` names put inside the others, in its order
  // (reorder_loops, which proves each swap), then each loop `tile` names
  // that is longer than its tile divided by it (divide_loop, the
  // remainder a nest of its own). The register tile is then made inside
  // them, the loops of each kind (docs/vectorize.md, step 5) in this
  // order.
  absl::Status ApplyLoopChoices(ir::Cursor& stmt,
                                std::vector<ir::Cursor>& pending) {
    std::vector<std::string> order;
    for (const std::string& name : strategy_.interchange) {
      if (LoopNamed(*stmt.node(), name) != nullptr) order.push_back(name);
    }
    if (order.size() > 1) {
      auto rank = [&](const ir::Node& loop) {
        auto it = std::find(order.begin(), order.end(), loop.name());
        return it == order.end() ? -1 : it - order.begin();
      };
      if (absl::Status status = Interchange(stmt, rank); !status.ok()) {
        return status;
      }
    }
    for (const auto& [name, size] : strategy_.tiles) {
      ir::Node* loop = LoopNamed(*stmt.node(), name);
      if (loop == nullptr || TripOf(*loop) <= size) continue;
      auto divided = Divide(stmt, name, size, pending);
      if (!divided.ok()) return divided.status();
    }
    return absl::OkStatus();
  }

  // A transposing nest: its rows and lanes tiled by the width (the
  // remainders peeled into nests of their own, which become smaller
  // tiles), put innermost, and the tile written as one 2-D vector.
  absl::Status Transpose(ir::Cursor& stmt, const NestPlan& plan,
                         std::vector<ir::Cursor>& pending) {
    std::string names[] = {plan.row_loop->name(), plan.vector_loop->name()};
    std::string outer[2];
    for (int k = 0; k < 2; ++k) {
      std::string& name = names[k];
      // A tile of a power of two rows and lanes moves by shuffles of whole
      // registers (emit-c); one of 9 rows went lane by lane, through
      // memory (4.8 % of the TN 89^3 matmul's time, in copying its 9
      // columns staged by rows back). So a tile's dimension that is not a
      // power of two is cut at the largest one, and the rest is a nest of
      // its own, cut again (9: 8 and 1; 7: 4, 2 and 1).
      const int64_t trip = TripOf(*LoopNamed(*stmt.node(), name));
      const int64_t tile = std::bit_floor(
          static_cast<uint64_t>(std::min(trip, strategy_.width)));
      if (trip <= tile) continue;
      auto divided = Divide(stmt, name, tile, pending);
      if (!divided.ok()) return divided.status();
      outer[k] = divided->first;
      name = divided->second;
    }
    // A tile that reads less than a line of each row it transposes (AVX2's
    // 8 x 8 f32: 32 bytes) shares the lines with the tiles beside it: they
    // go right after it, inside the other tile loop, so that a line is
    // read whole while it is in the L1 (Transpose2D on an AVX2 core: 38 ->
    // 47-48 GB/s at 256 x 256, 13-14 -> 18-19 at 1024 x 1024).
    std::string line_tiles;
    if (!outer[0].empty()) {
      auto tiles = LineTiles(stmt, names, outer[0], pending);
      if (!tiles.ok()) return tiles.status();
      line_tiles = *tiles;
    }
    // Among the tiles' loops, the one along the written rows innermost:
    // the tiles then write each row from end to end, and read lines 16
    // rows apart (Transpose2D ran at 99 GB/s against 66-69 at 256 x 256,
    // 41 against 33 at 1024 x 1024; docs/vectorize.md, "Memory-bound
    // kernels").
    auto rank = [&](const ir::Node& loop) {
      if (loop.name() == names[1]) return 4;
      if (loop.name() == names[0]) return 3;
      if (loop.name() == line_tiles) return 2;
      return WritesAlongRowsBy(*stmt.node(), loop) ? 1 : 0;
    };
    if (absl::Status status = Interchange(stmt, rank); !status.ok()) {
      return status;
    }
    if (absl::Status status = EmitTransposeTile(
            module_, *stmt.node(), *LoopNamed(*stmt.node(), names[0]),
            *LoopNamed(*stmt.node(), names[1]));
        !status.ok()) {
      return status;
    }
    return Reverify(module_, proc_);
  }

  // For Transpose: where the tile of `names` (its rows' loop, then its
  // lanes') reads rows narrower than a line from a tensor it transposes,
  // the rows' tile loop `outer` divided by the tiles a line holds, when
  // they divide its trip; the inner loop's name, or empty.
  absl::StatusOr<std::string> LineTiles(ir::Cursor& stmt,
                                        const std::string (&names)[2],
                                        const std::string& outer,
                                        std::vector<ir::Cursor>& pending) {
    const ir::Node& rows = *LoopNamed(*stmt.node(), names[0]);
    const ir::Node& lanes = *LoopNamed(*stmt.node(), names[1]);
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.node()->operand(1), loads);
    int64_t row_bytes = 0;
    for (ir::Node* load : loads) {
      if (TileReadOf(*load, rows, lanes) == TileRead::kTransposed) {
        row_bytes = std::max(row_bytes,
                             TripOf(rows) * ElemTypeBytes(load->type().elem()));
      }
    }
    if (row_bytes == 0 || row_bytes >= kLineBytes ||
        kLineBytes % row_bytes != 0 ||
        TripOf(*LoopNamed(*stmt.node(), outer)) % (kLineBytes / row_bytes) !=
            0) {
      return std::string();
    }
    auto divided = Divide(stmt, outer, kLineBytes / row_bytes, pending);
    if (!divided.ok()) return divided.status();
    return divided->second;
  }

  // Whether the strategy's loop choices name a loop around `stmt`.
  bool NamesALoop(const ir::Node& stmt) const {
    for (const auto& [name, size] : strategy_.tiles) {
      if (LoopNamed(stmt, name) != nullptr) return true;
    }
    for (const std::string& name : strategy_.interchange) {
      if (LoopNamed(stmt, name) != nullptr) return true;
    }
    return false;
  }

  // Whether the innermost reduction loop of `stmt` is longer than the
  // cache block (`depth`), which Run divides.
  // The cache block of a lane-vectorized reduce: its innermost reduction
  // loop (null without one) and the steps of it per block, so that the
  // panel the tiles of rows share (`lanes_trip` lanes per step of it and
  // of the reduction loops inside it) stays in the L2.
  struct CacheBlock {
    ir::Node* loop = nullptr;
    int64_t depth = 0;
  };
  // A tile of `tiled_lanes` lanes (0: the lanes are one tile) without
  // rows gets a streaming block instead (cache_blocks.h).
  CacheBlock BlockOf(ir::Node& stmt, const ir::Node& lanes, int64_t lanes_trip,
                     int64_t tiled_lanes, bool has_rows,
                     bool rows_packed) const {
    CacheBlock block;
    const int64_t elem_bytes = ElemTypeBytes(stmt.operand(0)->type().elem());
    int64_t step_bytes = lanes_trip * elem_bytes;
    std::vector<ir::Node*> loops = LoopsOf(stmt);
    for (auto it = loops.rbegin(); it != loops.rend(); ++it) {
      if (WritesIndexedBy(stmt, **it)) continue;
      if (block.loop == nullptr) {
        block.loop = *it;
      } else {
        step_bytes *= TripOf(**it);
      }
    }
    if (block.loop == nullptr) return block;
    if (!MayMoveReduction(stmt, *block.loop, /*outermost=*/true)) {
      return CacheBlock{};
    }
    if (std::optional<int64_t> depth = StreamingDepth(
            tiled_lanes * elem_bytes, StepStrideBytes(stmt, *block.loop),
            tiled_lanes > 0, has_rows)) {
      block.depth = *depth;
      return block;
    }
    const int64_t rows_bytes =
        RowsReadBytes(stmt, *block.loop, lanes, /*strided_only=*/!rows_packed);
    block.depth = CacheBlockDepth(strategy_,
                                  {.panel = step_bytes,
                                   .strided = rows_packed ? 0 : rows_bytes,
                                   .packed_rows = rows_packed ? rows_bytes : 0},
                                  TripOf(*block.loop));
    return block;
  }

  // Whether the reduce `stmt`, lanes `lanes` in tiles of `vectors`, will be
  // cache-blocked: its block computed for the widest tile of lanes it may
  // get, and the streaming block's for the narrowest, so that the answer
  // errs towards "blocked" (a fill is then split off, never kept with a
  // reduction whose blocks each add to the one before).
  bool DepthBlocked(ir::Node& stmt, const ir::Node& lanes, int64_t vectors,
                    bool has_rows, bool rows_packed) const {
    int64_t widest = std::min(TripOf(lanes), strategy_.width * vectors);
    // Run tiles lanes longer than a vector, by a vector or more.
    int64_t narrowest = TripOf(lanes) > strategy_.width ? strategy_.width : 0;
    auto blocked = [](const CacheBlock& block) {
      return block.loop != nullptr && TripOf(*block.loop) > block.depth;
    };
    return blocked(BlockOf(stmt, lanes, widest, 0, has_rows, rows_packed)) ||
           blocked(
               BlockOf(stmt, lanes, widest, narrowest, has_rows, rows_packed));
  }

  // Splits `fill` off the loops of its reduction `stmt` through all of
  // them (fission), into a nest of its own; both nests are then vectorized
  // as every other, the fill's first (before the nests `pending` holds).
  absl::Status SplitFillOff(ir::Node& fill, const ir::Cursor& stmt,
                            std::vector<ir::Cursor>& pending) {
    ir::Cursor at(module_, &fill);
    auto split = primitives::Fission(
        module_, at.after(), static_cast<int64_t>(LoopsOf(fill).size()));
    if (!split.ok()) {
      return Rejected(fill, "splitting the fill off", split.status());
    }
    pending.insert(pending.begin(), {at, stmt});
    return Reverify(module_, proc_);
  }

  // A read of `stmt` of vectors of each row's own (indexed by `rows` and
  // `lanes`) whose rows crowd the L1's sets; null when there is none. Its
  // register tile unrolls the whole window loop (a depthwise layer of 512
  // channels ran at 0.59-0.60x oneDNN with its taps rolled, 1.10-1.11x
  // unrolled; docs/vectorize.md, "Convolutions").
  static const ir::Node* CrowdedRead(ir::Node& stmt, const ir::Node& rows,
                                     const ir::Node& lanes) {
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.operand(1), loads);
    for (ir::Node* load : loads) {
      if (Indexes(*load, lanes) && Indexes(*load, rows) &&
          RowsCrowdL1Sets(*load, rows)) {
        return load;
      }
    }
    return nullptr;
  }

  // The tensors of the reads of `stmt` that the lanes index and the rows
  // do not (a depthwise layer's filter) whose lines for one tile of lanes
  // crowd the L1's sets along a loop inside `block_loop` (its taps, 4 KiB
  // apart in a layer of 1024 channels). Where the crowded read is staged
  // per block of lanes, these are staged beside it: their taps then stay
  // in the L1 while the block's rows and output lines run
  // (docs/vectorize.md, "Convolutions").
  static std::vector<std::string> CrowdedTaps(ir::Node& stmt,
                                              const ir::Node& block_loop,
                                              const ir::Node& rows,
                                              const ir::Node& lanes) {
    const std::vector<ir::Node*> loops = LoopsOf(stmt);
    auto inside = std::find(loops.begin(), loops.end(), &block_loop);
    std::vector<std::string> tensors;
    if (inside == loops.end()) return tensors;
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.operand(1), loads);
    for (ir::Node* load : loads) {
      const ir::Node& buffer = *ir::LoadView(*load).buffer();
      if (!Indexes(*load, lanes) || Indexes(*load, rows) ||
          !primitives::IsStageable(buffer) ||
          absl::c_linear_search(tensors, buffer.name())) {
        continue;
      }
      if (std::any_of(inside + 1, loops.end(), [&](ir::Node* loop) {
            return loop != &lanes && Indexes(*load, *loop) &&
                   RowsCrowdL1Sets(*load, *loop);
          })) {
        tensors.push_back(buffer.name());
      }
    }
    return tensors;
  }

  // The first read of `stmt`'s value from the tensor named `name`; null
  // when there is none.
  static const ir::Node* ReadOf(ir::Node& stmt, const std::string& name) {
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.operand(1), loads);
    for (ir::Node* load : loads) {
      if (ir::LoadView(*load).buffer()->name() == name) return load;
    }
    return nullptr;
  }

  // The register tile of `stmt` (tile_shape.h): fitted for a reduce whose
  // lanes are a parallel loop (matmul, convolutions), the strategy's
  // otherwise.
  TileShape ShapeOf(ir::Node& stmt, const NestPlan& plan) const {
    if (plan.mode == Mode::kReduction && SumsRowsInL2(stmt, plan)) {
      return TileShape{strategy_.width, 1};
    }
    if (plan.mode != Mode::kLanes || !stmt.is(ir::Op::kReduce)) {
      return TileShape{strategy_.rows, strategy_.vectors};
    }
    TileReads reads;
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.operand(1), loads);
    for (ir::Node* load : loads) {
      bool by_lanes = Indexes(*load, *plan.vector_loop);
      bool by_rows =
          plan.row_loop != nullptr && Indexes(*load, *plan.row_loop);
      // Rows that crowd the L1's sets cannot keep what neighbouring taps
      // share: their window is unrolled instead (WindowTaps), and the
      // tile reads each vector once.
      if (by_lanes && by_rows && !RowsCrowdL1Sets(*load, *plan.row_loop)) {
        ++reads.own;
      }
      if (by_lanes && !by_rows) ++reads.shared;
    }
    return ChooseTileShape(
        strategy_, reads,
        static_cast<int64_t>(LaneVectors(TripOf(*plan.vector_loop),
                                         strategy_.width, PartialTail(plan))
                                 .size()),
        plan.row_loop == nullptr ? 0 : TripOf(*plan.row_loop));
  }

  // Whether, with `shape fit`, the tile of a reduce whose lanes are a
  // reduction loop (row sums, gemv) is `width` rows of one vector, which
  // end in one multi-reduction (kernel.h): where the rows run along the
  // written element's last dimension, at least `width` of them, and what
  // the lanes read fits the L2. RowRed2D ran at 0.42-0.44 of `memcpy`
  // against 0.20 with the strategy's tile of rows at 48 x 48, 0.99-1.03
  // against 0.70 at 256, but 0.61-0.63 against 0.85-0.86 at 1024, where 16
  // rows from the L3 are more streams than the prefetchers follow
  // (docs/vectorize.md, "Memory-bound kernels").
  bool SumsRowsInL2(ir::Node& stmt, const NestPlan& plan) const {
    const int64_t width = strategy_.width;
    if (!strategy_.fit || !stmt.is(ir::Op::kReduce) ||
        plan.row_loop == nullptr || TripOf(*plan.row_loop) < width ||
        (width & (width - 1)) != 0) {
      return false;
    }
    ir::Node& lhs = *stmt.operand(0);
    if (!lhs.is(ir::Op::kLoad)) return false;
    absl::Span<ir::Node* const> written = ir::LoadView(lhs).indices();
    for (size_t d = 0; d < written.size(); ++d) {
      const int64_t coefficient =
          AffineForm(*written[d])->coefficient(plan.row_loop);
      if (coefficient != (d + 1 == written.size() ? 1 : 0)) return false;
    }
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.operand(1), loads);
    int64_t bytes = 0;
    for (ir::Node* load : loads) {
      if (!Indexes(*load, *plan.vector_loop)) continue;
      std::optional<int64_t> read = TensorBytes(*ir::LoadView(*load).buffer());
      if (!read.has_value()) return false;
      bytes += *read;
    }
    return bytes <= strategy_.l2;
  }

  static bool RowsShareARead(ir::Node& stmt, const NestPlan& plan) {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    // Without reads (a fill), the rows share the broadcast value.
    if (reads.empty()) return true;
    for (ir::Node* read : reads) {
      bool lanes = false, rows = false;
      for (const ir::Node* index : ir::LoadView(*read).indices()) {
        primitives::LinearForm form = *AffineForm(*index);
        lanes = lanes || form.coefficient(plan.vector_loop) != 0;
        rows = rows || form.coefficient(plan.row_loop) != 0;
      }
      if (lanes && !rows) return true;
    }
    return false;
  }

  // Whether `loop` indexes the last dimension of the element `stmt`
  // writes.
  static bool WritesAlongRowsBy(const ir::Node& stmt, const ir::Node& loop) {
    const ir::Node& lhs = *stmt.operand(0);
    if (!lhs.is(ir::Op::kLoad)) return false;
    absl::Span<ir::Node* const> indices =
        ir::LoadView(const_cast<ir::Node&>(lhs)).indices();
    if (indices.empty()) return false;
    std::optional<primitives::LinearForm> last = AffineForm(*indices.back());
    return last.has_value() && last->coefficient(&loop) != 0;
  }

  static bool WritesIndexedBy(const ir::Node& stmt, const ir::Node& loop) {
    const ir::Node& lhs = *stmt.operand(0);
    return lhs.is(ir::Op::kLoad) && Indexes(lhs, loop);
  }

  // Whether the reduction loop `loop` of `stmt` may become the outermost
  // (`outermost`) or the innermost of its reduction loops, which sums in
  // another order where it is not already there: always with `contraction
  // fma`; with `mul-add`, which promises the loops' bits (docs/vectorize.md,
  // "Rounding"), and for f16, which keeps its two roundings whatever the
  // contraction (its ulp makes another order a visible difference), only
  // where it is there already (loops of one iteration, a 1 x 1 filter's,
  // order nothing).
  bool MayMoveReduction(const ir::Node& stmt, const ir::Node& loop,
                        bool outermost) const {
    if (strategy_.contraction != Contraction::kMulAdd &&
        stmt.operand(0)->type().elem() != ElemType::kF16) {
      return true;
    }
    std::vector<const ir::Node*> reductions;
    for (const ir::Node* around : LoopsOf(stmt)) {
      if (!WritesIndexedBy(stmt, *around) &&
          (around == &loop || TripOf(*around) > 1)) {
        reductions.push_back(around);
      }
    }
    return (outermost ? reductions.front() : reductions.back()) == &loop;
  }

  // The bytes per step of the cache block's loop `block` of the reads
  // that the lanes do not index (the rows' other factor, matmul's A), or
  // with `strided_only` of those that `block` indexes in a dimension other
  // than their last (matmul's A stored transposed, A[k, i]): each step
  // reads a line of its own per tile of rows, at a stride that the
  // prefetchers do not follow, so those lines, over all tiles of rows,
  // should stay in the L2 across the tiles of lanes, with the panel.
  static int64_t RowsReadBytes(ir::Node& stmt, const ir::Node& block,
                               const ir::Node& lanes, bool strided_only) {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    int64_t bytes = 0;
    for (ir::Node* read : reads) {
      absl::Span<ir::Node* const> indices = ir::LoadView(*read).indices();
      bool strided = false, by_lanes = false;
      std::set<const ir::Node*> others;
      for (size_t d = 0; d < indices.size(); ++d) {
        primitives::LinearForm form = *AffineForm(*indices[d]);
        by_lanes = by_lanes || form.coefficient(&lanes) != 0;
        strided = strided ||
                  (d + 1 < indices.size() && form.coefficient(&block) != 0);
        for (ir::Node* loop : LoopsOf(stmt)) {
          if (loop != &block && form.coefficient(loop) != 0) {
            others.insert(loop);
          }
        }
      }
      if (by_lanes || (strided_only && !strided)) continue;
      int64_t elements = 1;
      for (const ir::Node* loop : others) elements *= TripOf(*loop);
      bytes += elements * ElemTypeBytes(read->type().elem());
    }
    return bytes;
  }

  // A read of the rows' other factor that a tile of rows reads one
  // element of per row and step (matmul's A), and the dimension the rows
  // index: the lanes index none of its dimensions, the rows one, as the
  // tile's rows (`rows` with coefficient 1, the loop of its tiles, once
  // `rows` is divided into tiles of `tile_rows`, with coefficient
  // `tile_rows`), and only parallel loops outside the tile or reduction
  // loops the others.
  struct RowsRead {
    ir::Node* read = nullptr;
    int64_t dim = 0;
    // Whether a reduction loop indexes a dimension before the last, so
    // that each step reads a line per tile of rows (A stored transposed,
    // A[k, i]; RowsReadBytes); else each row reads a stream of its own
    // along the last dimension (A[i, k]).
    bool strided = false;
  };

  // The RowsRead of `stmt`; its read null where there is none.
  RowsRead RowsTiledRead(ir::Node& stmt, const ir::Node& rows,
                         const ir::Node& lanes, int64_t tile_rows) const {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    for (ir::Node* read : reads) {
      absl::Span<ir::Node* const> indices = ir::LoadView(*read).indices();
      if (indices.empty() || Indexes(*read, lanes) ||
          !primitives::IsStageable(*ir::LoadView(*read).buffer())) {
        continue;
      }
      std::optional<int64_t> rows_dim;
      bool tiled = true, strided = false, last_reduced = false;
      const size_t last = indices.size() - 1;
      for (size_t d = 0; d <= last && tiled; ++d) {
        std::optional<primitives::LinearForm> form = AffineForm(*indices[d]);
        if (!form.has_value()) {
          tiled = false;
          break;
        }
        const bool by_rows = form->coefficient(&rows) != 0;
        if (by_rows) {
          tiled = !rows_dim.has_value() && form->coefficient(&rows) == 1;
          rows_dim = static_cast<int64_t>(d);
        }
        for (ir::Node* loop : LoopsOf(stmt)) {
          const int64_t c = form->coefficient(loop);
          if (c == 0 || loop == &rows) continue;
          if (by_rows) {
            tiled = tiled && c == tile_rows && TripOf(rows) == tile_rows;
          } else if (!WritesIndexedBy(stmt, *loop)) {
            strided = strided || d < last;
            last_reduced = last_reduced || d == last;
          }
        }
      }
      if (!tiled || !rows_dim.has_value()) continue;
      const bool rows_last = *rows_dim == static_cast<int64_t>(last);
      if (strided ? rows_last : !rows_last && last_reduced) {
        return RowsRead{read, *rows_dim, strided};
      }
    }
    return RowsRead{};
  }

  // Whether `rows_read` (RowsTiledRead) is packed by tiles of rows
  // (PackByTiles), read by `lane_tiles` tiles of lanes: with `pack yes`;
  // with `pack auto`, a strided read where two tiles of lanes or more read
  // it and it outgrows the L2, or where `pack_reads` tiles of lanes or
  // more read it and the lines a tile of rows reads of it crowd the L1
  // (StepLinesCrowdL1), so that each tile of lanes reads them again from
  // the L2; a read of a stream per row where `pack_reads` tiles of lanes
  // or more read it and it outgrows the L2. The TN matmul ran at 79-83
  // GFLOP/s in place at 2048 (its `k` blocked so that those lines stayed
  // in the L2), 104-106 packed; at 1024 93-97 and 106-108; at 512, where
  // A fills the L2, 107-110 in place and 103-107 packed (AVX-512). With
  // AVX2's tiles of 16 lanes, at 128-384 (A's rows 512 bytes to 1.5 KiB
  // apart), 62-74 in place and 72-83 packed (docs/vectorize.md, step 6).
  // A tile's 6 streams of the NN matmul's A, rows 8 KiB apart at 2048,
  // fall in one set of the L1 and of the L2, and each row is a page of
  // its own; packed, they are one stream (docs/vectorize.md, step 6).
  bool PacksByTiles(ir::Node& stmt, const RowsRead& rows_read,
                    int64_t lane_tiles) const {
    if (strategy_.pack == Pack::kNo || lane_tiles < 2) return false;
    if (strategy_.pack == Pack::kYes) return true;
    const std::optional<int64_t> bytes =
        TensorBytes(*ir::LoadView(*rows_read.read).buffer());
    if (!rows_read.strided) {
      return lane_tiles >= strategy_.pack_reads && bytes.has_value() &&
             *bytes > strategy_.l2;
    }
    if (!bytes.has_value() || *bytes > strategy_.l2) return true;
    return lane_tiles >= strategy_.pack_reads &&
           StepLinesCrowdL1(stmt, *rows_read.read);
  }

  // Whether the lines that a tile of rows reads of `read` (one per step of
  // the reduction loops that index a dimension other than its last) fill
  // more than half of the L1 sets they fall in, which the rows' other
  // reads share: rows 512 bytes apart fall in 8 of the 64 sets, whose 8
  // ways hold 64 lines, and a reduction of 128 steps or more evicts them
  // before the next tile of lanes reads them.
  static bool StepLinesCrowdL1(ir::Node& stmt, ir::Node& read) {
    absl::Span<ir::Node* const> indices = ir::LoadView(read).indices();
    int64_t lines = 1;
    std::optional<int64_t> stride;
    for (ir::Node* loop : LoopsOf(stmt)) {
      bool steps = false;
      for (size_t d = 0; d + 1 < indices.size(); ++d) {
        steps = steps || AffineForm(*indices[d])->coefficient(loop) != 0;
      }
      if (!steps || WritesIndexedBy(stmt, *loop)) continue;
      lines *= TripOf(*loop);
      std::optional<int64_t> bytes = ReadStrideBytes(read, *loop);
      if (!bytes.has_value()) return false;
      stride = std::min(stride.value_or(*bytes), *bytes);
    }
    if (!stride.has_value() || *stride < kLineBytes) return false;
    const int64_t sets = std::min(kL1WayBytes / kLineBytes,
                                  kL1WayBytes / std::gcd(*stride, kL1WayBytes));
    return 2 * lines > sets * (kL1Bytes / kL1WayBytes);
  }

  // Whether an index of the load `read` varies with `loop`.
  static bool Indexes(const ir::Node& read, const ir::Node& loop) {
    for (const ir::Node* index :
         ir::LoadView(const_cast<ir::Node&>(read)).indices()) {
      if (AffineForm(*index)->coefficient(&loop) != 0) return true;
    }
    return false;
  }

  // A panel (Panel) and how many times the parallel loops outside the
  // tile read it: the product of their trips.
  struct PanelRead {
    const ir::Node* read = nullptr;
    int64_t times = 0;
  };

  // The panel of `stmt` (Run): a read with indices of the lanes but not of
  // the rows (the loops of these names) that parallel loops outside the
  // tile, of more than one iteration, do not index, so that they read it
  // again, and whose tensor is too large for that: one that only the tiles
  // of rows read again (matmul's B) when it outgrows half of the L2, where
  // its row stride would make it conflict in the cache's sets
  // (cache_blocks.h); one that other loops read again (a convolution's
  // filter, by every output row) when it outgrows the L2, which it would
  // then leave between their iterations. Its read is null when there is
  // none.
  PanelRead Panel(ir::Node& stmt, const std::string& rows_outer,
                  const std::string& rows, const std::string& lanes) const {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    for (ir::Node* read : reads) {
      bool by_rows = false, by_lanes = false;
      bool again_by_tiles = false, again_by_others = false;
      int64_t times = 1;
      for (ir::Node* loop : LoopsOf(stmt)) {
        const std::string& name = loop->name();
        bool indexes = Indexes(*read, *loop);
        by_rows = by_rows || (indexes && (name == rows || name == rows_outer));
        by_lanes = by_lanes || (indexes && name == lanes);
        if (indexes || name == rows || !WritesIndexedBy(stmt, *loop) ||
            TripOf(*loop) < 2) {
          continue;
        }
        again_by_tiles = again_by_tiles || name == rows_outer;
        again_by_others = again_by_others || name != rows_outer;
        times *= TripOf(*loop);
      }
      if (!by_lanes || by_rows ||
          !primitives::IsStageable(*ir::LoadView(*read).buffer())) {
        continue;
      }
      std::optional<int64_t> bytes =
          TensorBytes(*ir::LoadView(*read).buffer());
      if ((again_by_others && (!bytes.has_value() || *bytes > strategy_.l2)) ||
          (again_by_tiles && WorthPacking(strategy_, bytes))) {
        return PanelRead{read, times};
      }
    }
    return PanelRead{};
  }

  // The dimension of the panel `panel` (a read of `stmt`) to lay out by
  // tiles of lanes where it is packed whole (Run, `pack_whole`): where
  // its tensor is no larger than `pack_whole` and a read of `stmt` that
  // the rows index outgrows `l2`, the dimension the lanes index as tiles
  // (LanesTiledDim); nullopt otherwise.
  std::optional<int64_t> WholePanelDim(ir::Node& stmt, const ir::Node& panel,
                                       const std::string& lanes,
                                       const std::string& lanes_outer,
                                       const std::string& rows) const {
    const std::optional<int64_t> bytes =
        TensorBytes(*ir::LoadView(const_cast<ir::Node&>(panel)).buffer());
    if (!bytes.has_value() || *bytes > strategy_.pack_whole) {
      return std::nullopt;
    }
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    if (absl::c_none_of(reads, [&](ir::Node* read) {
          const std::optional<int64_t> read_bytes =
              TensorBytes(*ir::LoadView(*read).buffer());
          return Indexes(*read, *LoopNamed(stmt, rows)) &&
                 read_bytes.has_value() && *read_bytes > strategy_.l2;
        })) {
      return std::nullopt;
    }
    return LanesTiledDim(stmt, panel, *LoopNamed(stmt, lanes),
                         *LoopNamed(stmt, lanes_outer));
  }

  // The bytes of a tensor of constant dimensions; nullopt for a window
  // (whose rows need not be contiguous) or symbolic dimensions.
  static std::optional<int64_t> TensorBytes(const ir::Node& buffer) {
    const ir::Type& type = buffer.declared_type();
    if (type.kind() != ir::TypeKind::kTensor) return std::nullopt;
    std::optional<std::vector<int64_t>> dims = type.ConstantDims();
    if (!dims.has_value()) return std::nullopt;
    int64_t bytes = ElemTypeBytes(type.elem());
    for (int64_t dim : *dims) bytes *= dim;
    return bytes;
  }

  // Stages (libs/primitives' stage_mem) the tensor that `panel`, a read
  // of `stmt`, reads into a dense buffer inside the loop `outside`, or,
  // without one, before the outermost loop that does not index it (Run's
  // order puts the loops that do outside): the box of elements the loops
  // inside read, copied once per iteration of the loops outside. Returns
  // the buffer's alloc; null when every loop indexes the panel (nothing
  // is staged).
  absl::StatusOr<ir::Node*> Pack(const ir::Cursor& stmt, const ir::Node& panel,
                                 const ir::Node* outside = nullptr) {
    std::vector<ir::Node*> loops = LoopsOf(*stmt.node());
    auto inside =
        outside != nullptr
            ? std::find(loops.begin(), loops.end(), outside) + 1
            : std::find_if(loops.begin(), loops.end(), [&](ir::Node* l) {
                return !Indexes(panel, *l);
              });
    if (inside == loops.end()) return nullptr;
    ir::Node& read = const_cast<ir::Node&>(panel);
    const ir::Node& buffer = *ir::LoadView(read).buffer();
    ir::Node* window =
        BoxOf(module_, read, std::vector<ir::Node*>(inside, loops.end()),
              *stmt.node()->operand(1));
    std::string name = ir::FreshName(module_, proc_,
                                     absl::StrCat(buffer.name(), "_packed"));
    // Inside `outside`, over its whole body: a fill that goes with the
    // register tile stays just before the reduction loops (TakeFill).
    ir::BlockCursor block = ir::Cursor(module_, *inside).as_block();
    if (outside != nullptr) {
      absl::Span<ir::Node* const> body =
          ir::ForView(const_cast<ir::Node&>(*outside)).body();
      block = ir::BlockCursor(ir::Cursor(module_, body.front()),
                              ir::Cursor(module_, body.back()));
    }
    if (absl::Status status =
            primitives::StageMem(module_, block, *window, name);
        !status.ok()) {
      return Rejected(*stmt.node(),
                      absl::StrCat("packing '", buffer.name(), "'"), status);
    }
    if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
      return status;
    }
    return AllocNamed(proc_, name);
  }

  // Packs a copy for the lanes (layout.h) that `stmt` still reads in
  // place (no panel packed it: a nest of one tile of rows, the last 4
  // rows of 1024) tile by tile of lanes, inside the lanes' tile loop
  // `lanes_outer`, where only copies read it elsewhere (the packings of
  // the nests vectorized before, LIFO) and each of its elements is then
  // copied once (every loop outside that loop indexes it): the packings
  // then copy from the tensor, and the copy goes (ForwardLanesCopies).
  // Where any other nest reads it in place, the copy stays, and a
  // packing would be one more. Not with `pack no`.
  absl::Status PackLanesCopy(const ir::Cursor& stmt,
                             const std::string& lanes_outer) {
    if (strategy_.pack == Pack::kNo || lanes_outer.empty()) {
      return absl::OkStatus();
    }
    const ir::Node* tile_loop = LoopNamed(*stmt.node(), lanes_outer);
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.node()->operand(1), reads);
    for (ir::Node* read : reads) {
      const ir::Node* copy =
          lanes_copies_.CopyInto(*ir::LoadView(*read).buffer());
      if (copy == nullptr ||
          !CopiesOf(*copy, LoopsOf(*stmt.node()).front()).has_value()) {
        continue;
      }
      bool once = true;
      for (ir::Node* loop : LoopsOf(*stmt.node())) {
        if (loop == tile_loop) break;
        once = once && Indexes(*read, *loop);
      }
      if (!once) continue;
      return Pack(stmt, *read, tile_loop).status();
    }
    return absl::OkStatus();
  }

  // Packs each read of `stmt` that the rows share and that is no panel,
  // whose lines for one tile of lanes lie `pack_taps` bytes apart or more
  // along each other loop that indexes it (a depthwise layer's filter of 64
  // channels or more, its taps a row of channels apart), by tiles of
  // lanes, once before the nest (Pack, LayOutByTiles): each tile's taps
  // then lie on consecutive lines, out of the L1 sets that the tile's
  // input rows and output lines, as far apart, crowd (AVX2, 30 x 30 x 256:
  // 5-7 % faster; docs/vectorize.md, "Convolutions"). Only where the rows
  // read vectors of their own (a depthwise layer's input): where they read
  // an element each (matmul's A), the shared read's rows are the tile's
  // only vectors read, and the copy costs more than it saves (AVX2, B of
  // 64^3 and 128^3 matmuls: 7-8 % slower). The lanes must index one
  // dimension of it, as `tile * lanes_outer + lanes` and a literal.
  absl::Status PackTapsByTiles(const ir::Cursor& stmt, const std::string& lanes,
                               const std::string& lanes_outer,
                               const std::string& rows) {
    if (strategy_.pack == Pack::kNo || strategy_.pack_taps == 0 ||
        lanes_outer.empty() || rows.empty()) {
      return absl::OkStatus();
    }
    std::vector<ir::Node*> loads;
    LoadsIn(*stmt.node()->operand(1), loads);
    if (absl::c_none_of(loads, [&](ir::Node* load) {
          return Indexes(*load, *LoopNamed(*stmt.node(), lanes)) &&
                 Indexes(*load, *LoopNamed(*stmt.node(), rows));
        })) {
      return absl::OkStatus();
    }
    std::vector<std::string> packed;
    for (;;) {
      const ir::Node& lanes_loop = *LoopNamed(*stmt.node(), lanes);
      const ir::Node& tile_loop = *LoopNamed(*stmt.node(), lanes_outer);
      const TapsRead taps =
          TapsTiledRead(*stmt.node(), lanes_loop, tile_loop,
                        *LoopNamed(*stmt.node(), rows), packed);
      if (taps.read == nullptr) return absl::OkStatus();
      packed.push_back(
          ir::LoadView(const_cast<ir::Node&>(*taps.read)).buffer()->name());
      auto alloc =
          PackTiled(stmt, *taps.read, taps.dim, TripOf(lanes_loop), "lanes");
      if (!alloc.ok()) return alloc.status();
      // The copy is never packed again: with tiles of one lane, its reads
      // index it as the tensor's did, and each copy would take another.
      if (*alloc != nullptr) packed.push_back((*alloc)->name());
    }
  }

  // The dimension of `read` that the lanes index, as `T * tile_loop +
  // lanes` plus a constant (T the lanes' trip) that no other loop of
  // `stmt` indexes, where the lanes index no other: a dimension that
  // LayOutByTiles can lay out by tiles of lanes. Nullopt for none.
  static std::optional<int64_t> LanesTiledDim(ir::Node& stmt,
                                              const ir::Node& read,
                                              const ir::Node& lanes,
                                              const ir::Node& tile_loop) {
    std::optional<int64_t> dim;
    absl::Span<ir::Node* const> indices =
        ir::LoadView(const_cast<ir::Node&>(read)).indices();
    for (size_t d = 0; d < indices.size(); ++d) {
      std::optional<primitives::LinearForm> form = AffineForm(*indices[d]);
      if (!form.has_value()) return std::nullopt;
      if (form->coefficient(&lanes) == 0) continue;
      if (dim.has_value() || form->coefficient(&lanes) != 1 ||
          form->coefficient(&tile_loop) != TripOf(lanes)) {
        return std::nullopt;
      }
      for (ir::Node* loop : LoopsOf(stmt)) {
        if (loop != &lanes && loop != &tile_loop &&
            form->coefficient(loop) != 0) {
          return std::nullopt;
        }
      }
      dim = static_cast<int64_t>(d);
    }
    return dim;
  }

  // A read PackTapsByTiles packs, and the dimension the lanes index.
  struct TapsRead {
    const ir::Node* read = nullptr;
    int64_t dim = 0;
  };

  // The first read of `stmt` that PackTapsByTiles packs, of a tensor not
  // in `packed`; a null read when there is none.
  TapsRead TapsTiledRead(ir::Node& stmt, const ir::Node& lanes,
                         const ir::Node& tile_loop, const ir::Node& rows,
                         const std::vector<std::string>& packed) const {
    std::vector<ir::Node*> reads;
    LoadsIn(*stmt.operand(1), reads);
    for (ir::Node* read : reads) {
      const ir::Node& buffer = *ir::LoadView(*read).buffer();
      if (!Indexes(*read, lanes) || Indexes(*read, rows) ||
          !primitives::IsStageable(buffer) || !TensorBytes(buffer) ||
          absl::c_linear_search(packed, buffer.name())) {
        continue;
      }
      const std::optional<int64_t> dim =
          LanesTiledDim(stmt, *read, lanes, tile_loop);
      if (!dim.has_value()) continue;
      // Its taps: the other loops that index it, each step of them
      // `pack_taps` bytes or more.
      bool taps = false, apart = true;
      for (ir::Node* loop : LoopsOf(stmt)) {
        if (loop == &lanes || loop == &tile_loop || !Indexes(*read, *loop)) {
          continue;
        }
        std::optional<int64_t> stride = ReadStrideBytes(*read, *loop);
        taps = true;
        apart = apart && stride.has_value() &&
                std::abs(*stride) >= strategy_.pack_taps;
      }
      if (taps && apart) return TapsRead{read, *dim};
    }
    return TapsRead{};
  }

  // Packs `read` as Pack does, laid out by tiles of `size` indices of its
  // dimension `dim` (LayOutByTiles: the tiles' dimension first, the
  // tile's last); `what` names the tiles in a rejection. Returns the
  // copy's alloc; null when nothing is packed.
  absl::StatusOr<ir::Node*> PackTiled(const ir::Cursor& stmt,
                                      const ir::Node& read, int64_t dim,
                                      int64_t size, absl::string_view what) {
    auto alloc = Pack(stmt, read);
    if (!alloc.ok() || *alloc == nullptr) return alloc;
    const std::string name = (*alloc)->name();
    if (absl::Status status = LayOutByTiles(module_, proc_, **alloc, dim, size);
        !status.ok()) {
      return Rejected(*stmt.node(),
                      absl::StrCat("packing '", name, "' by tiles of ", what),
                      status);
    }
    if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
      return status;
    }
    return AllocNamed(proc_, name);
  }

  // Divides the loop `name` around `stmt` by `quot` (divide_loop, its
  // remainder cut off into a nest of its own, split from this one by
  // fission); returns the names of the outer loop (empty when it was
  // unrolled) and the inner one.
  absl::StatusOr<std::pair<std::string, std::string>> Divide(
      ir::Cursor& stmt, const std::string& name, int64_t quot,
      std::vector<ir::Cursor>& pending) {
    ir::Node* loop = LoopNamed(*stmt.node(), name);
    std::string outer = ir::FreshName(module_, proc_, name + "o");
    std::string inner = ir::FreshName(module_, proc_, name + "i");
    if (inner == outer) inner = ir::FreshName(module_, proc_, name + "i_");
    auto divided = primitives::DivideLoop(
        module_, ir::Cursor(module_, loop), quot, outer, inner,
        primitives::TailStrategy::kCut, /*perfect=*/false);
    if (!divided.ok()) {
      return Rejected(*stmt.node(), absl::StrCat("tiling loop '", name, "'"),
                      divided.status());
    }
    if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
      return status;
    }
    // A cut whose trip count divides keeps a tail of no iterations (so that
    // a schedule finds it at every size): dead code here.
    if (divided->tail.is_valid() && TripOf(*divided->tail.node()) == 0) {
      if (absl::Status status =
              primitives::EliminateDeadCode(module_, divided->tail);
          !status.ok()) {
        return Rejected(*stmt.node(), absl::StrCat("tiling loop '", name, "'"),
                        status);
      }
    } else if (divided->tail.is_valid()) {
      ir::Node* tail = divided->tail.node();
      pending.emplace_back(module_, BottomOf(*tail));
      // Up to the loop that declares what the nest writes, if any.
      const std::vector<ir::Node*> around = LoopsOf(*tail);
      const ir::Node* written = WrittenBy(*stmt.node());
      size_t lifts = 0;
      while (lifts < around.size() &&
             (written == nullptr ||
              !Declares(*around[around.size() - 1 - lifts], *written))) {
        ++lifts;
      }
      if (lifts > 0) {
        auto split = primitives::Fission(module_, divided->tail.before(),
                                         static_cast<int64_t>(lifts));
        if (!split.ok()) {
          return Rejected(*stmt.node(),
                          absl::StrCat("peeling loop '", name, "'"),
                          split.status());
        }
        if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
          return status;
        }
      }
    }
    // A tile loop of one iteration (a loop no longer than its tile) is
    // unrolled (unroll_loop): the tiles' index without it.
    ir::Cursor outer_loop(module_, LoopNamed(*stmt.node(), outer));
    if (TripOf(*outer_loop.node()) == 1) {
      if (absl::Status status = primitives::UnrollLoop(module_, outer_loop);
          !status.ok()) {
        return Rejected(*stmt.node(),
                        absl::StrCat("unrolling loop '", outer, "'"), status);
      }
      if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
        return status;
      }
      // The cursor points at the copy of the body: the inner loop.
      stmt = ir::Cursor(module_, BottomOf(*outer_loop.node()));
      outer.clear();
    }
    return std::make_pair(outer, inner);
  }

  // Sorts the loops around `stmt` by `rank` (stably) with reorder_loops,
  // which proves each swap.
  template <typename Rank>
  absl::Status Interchange(const ir::Cursor& stmt, const Rank& rank) {
    for (bool swapped = true; swapped;) {
      swapped = false;
      std::vector<ir::Node*> loops = LoopsOf(*stmt.node());
      for (size_t i = 0; i + 1 < loops.size(); ++i) {
        if (rank(*loops[i]) <= rank(*loops[i + 1])) continue;
        auto reordered =
            primitives::ReorderLoops(module_, ir::Cursor(module_, loops[i]));
        if (!reordered.ok()) {
          return Rejected(
              *stmt.node(),
              absl::StrCat("interchanging loops '", loops[i]->name(), "' and '",
                           loops[i + 1]->name(), "'"),
              reordered.status());
        }
        if (absl::Status status = Reverify(module_, proc_); !status.ok()) {
          return status;
        }
        swapped = true;
        break;
      }
    }
    return absl::OkStatus();
  }

  ir::Module& module_;
  ir::Node& proc_;
  const Strategy& strategy_;
  LanesCopies& lanes_copies_;
};

// The names of the loops in `node`, added to `names`.
void LoopNames(const ir::Node& node, std::set<std::string>& names) {
  if (node.is(ir::Op::kFor)) names.insert(node.name());
  for (const ir::Node* operand : node.operands()) LoopNames(*operand, names);
}

}  // namespace

absl::Status CheckStrategyLoops(const ir::Module& module,
                                const Strategy& strategy) {
  std::set<std::string> names;
  for (const ir::Node* form : module.forms()) {
    if (form->is(ir::Op::kProc)) LoopNames(*form, names);
  }
  std::vector<std::pair<std::string, std::string>> named;
  for (const auto& [loop, size] : strategy.tiles) named.emplace_back("tile", loop);
  for (const std::string& loop : strategy.interchange) {
    named.emplace_back("interchange", loop);
  }
  for (const auto& [key, loop] : named) {
    if (names.contains(loop)) continue;
    return absl::InvalidArgumentError(absl::StrCat(
        "the strategy's '", key, "' names loop '", loop,
        "', which no proc has (loops: ",
        names.empty() ? "none" : absl::StrJoin(names, ", "), ")"));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::vector<std::string>> VectorizeProc(
    ir::Module& module, ir::Node& proc, const Strategy& strategy) {
  if (absl::Status status = SplitIntoNests(module, proc); !status.ok()) {
    return status;
  }
  if (absl::Status status = Reverify(module, proc); !status.ok()) {
    return status;
  }
  std::vector<ir::Cursor> pending;
  for (ir::Node* stmt : NestStatements(proc))
    pending.emplace_back(module, stmt);
  std::reverse(pending.begin(), pending.end());
  LanesCopies lanes_copies;
  NestVectorizer vectorizer(module, proc, strategy, lanes_copies);
  std::vector<std::string> notes;
  // The copies for the lanes wait until every nest is vectorized: those
  // that only packings read are then read from their tensors.
  while (!pending.empty() || !lanes_copies.statements.empty()) {
    if (pending.empty()) {
      auto copies = ForwardLanesCopies(module, proc, lanes_copies);
      if (!copies.ok()) return copies.status();
      lanes_copies.statements.clear();
      pending.assign(copies->rbegin(), copies->rend());
      continue;
    }
    ir::Cursor stmt = pending.back();
    pending.pop_back();
    std::vector<ir::Cursor> peeled;
    if (absl::Status status = vectorizer.Run(stmt, peeled, notes);
        !status.ok()) {
      return status;
    }
    pending.insert(pending.end(), peeled.rbegin(), peeled.rend());
  }
  if (absl::Status status = ShareRepeatedCopies(module, proc); !status.ok()) {
    return status;
  }
  if (absl::Status status = PrefetchCopies(module, proc, strategy);
      !status.ok()) {
    return status;
  }
  if (strategy.nontemporal > 0) {
    // The marks read the types the verifier sets; the verifier then proves
    // the (in-bounds 1) they add.
    if (absl::Status status = Reverify(module, proc); !status.ok()) {
      return status;
    }
    if (absl::Status status = MarkStreamingWrites(module, proc, strategy);
        !status.ok()) {
      return status;
    }
    if (absl::Status status = Reverify(module, proc); !status.ok()) {
      return status;
    }
  }
  return notes;
}

}  // namespace tessel::vectorize
