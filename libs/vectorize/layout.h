// Copies that lay a tensor out for a nest's vectors: a tensor read with
// the lane loop in a dimension other than its last (matmul's B[j, k] for
// C[i, j]) is copied, before the nest, into a buffer whose last dimension
// that loop indexes; a staged tensor that tiles of rows read a line per
// step is laid out tile by tile (GotoBLAS's packed A).
#ifndef TESSEL_LIBS_VECTORIZE_LAYOUT_H_
#define TESSEL_LIBS_VECTORIZE_LAYOUT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/cursor.h"
#include "libs/ir/node.h"

namespace tessel::vectorize {

// The copies CopyReadsForLanes makes in a proc, whose statements are
// vectorized once every nest is (ForwardLanesCopies).
struct LanesCopies {
  std::vector<ir::Cursor> statements;
  // The statement of the one that writes `buffer`; null for none.
  const ir::Node* CopyInto(const ir::Node& buffer) const;
};

// The assignments that copy elements of the buffer `copy` (a statement of
// LanesCopies) writes, `(assign (P ...) (B ...))`, but those inside
// `except` (when not null); nullopt where a statement other than these
// and `copy` reads it otherwise (a vector transfer, a reduction, a call).
std::optional<std::vector<ir::Node*>> CopiesOf(const ir::Node& copy,
                                               const ir::Node* except);

// For a `reduce` whose written element's last index is a loop j plus a
// constant (j in no other index), each tensor it reads with j, with
// coefficient 1, in one dimension other than its last, and reads again
// across some loop of the nest (a reuse that pays for the copy), is
// staged over the whole nest (stage_mem: the box of elements the nest
// reads) and the copy's dimensions rearranged so that j's is last
// (rearrange_dim): every read the nest makes with j is then contiguous in
// it, and j can give the lanes. The copies' statements are added to
// `copies` (each a transposing nest of its own). Returns whether any was
// made; a primitive's rejection is an error at `stmt`.
absl::StatusOr<bool> CopyReadsForLanes(ir::Module& module, ir::Node& proc,
                                       ir::Node& stmt, LanesCopies& copies);

// Once every nest of `proc` is vectorized: each copy of `copies` that
// only copies read (assignments of its elements, the packings of tiles of
// lanes, vectorize.cc) is read from its tensor instead, by those copies
// (inline_copy), and deleted: a matmul with B stored transposed then
// copies each tile of B's rows, transposed, into the tile's packed panel,
// where it copied the whole of B transposed and then each tile of that.
// Returns the statements to vectorize: the copies that read the tensor
// now (transposing nests), and the copies of `copies` that stay.
absl::StatusOr<std::vector<ir::Cursor>> ForwardLanesCopies(
    ir::Module& module, ir::Node& proc, const LanesCopies& copies);

// Stages the tensor of `read` (a read of `stmt`) over the whole nest of
// `stmt` (stage_mem: the box BoxOf gives) into a copy named after it with
// `suffix`, whose dimension `dim` is rearranged to be the last
// (rearrange_dim); the copy's statement is added to `pending`. A
// primitive's rejection is an error at `stmt`.
absl::Status CopyWithDimLast(ir::Module& module, ir::Node& proc, ir::Node& stmt,
                             ir::Node& read, int64_t dim,
                             absl::string_view suffix,
                             std::vector<ir::Cursor>& pending);

// Stages the tensor of `access`, an element `stmt` reads or writes, over
// `block` (statements that hold `stmt`'s nest and access that tensor only
// inside the box BoxOf gives for `access` over `stmt`'s loops) into a copy
// named after it with `suffix`, its dimension `dim` rearranged to be the
// last: stage_mem copies in what the block reads before it writes, and
// out what it writes. Returns the copy's alloc; a primitive's rejection
// is an error at `stmt`. (CopyWithDimLast is this for a read over its
// nest.)
absl::StatusOr<ir::Node*> StageWithDimLast(ir::Module& module, ir::Node& proc,
                                           ir::Node& stmt, ir::Node& access,
                                           const ir::BlockCursor& block,
                                           int64_t dim,
                                           absl::string_view suffix);

// The box of elements `read` touches over `loops` (literal bounds), as a
// window of its tensor, an interval in every dimension: what stage_mem
// copies for them. The box also holds what the other reads of that tensor
// in `value` (the statement's value) touch, where their bounds differ from
// its by constants: stage_mem redirects them all to the copy.
ir::Node* BoxOf(ir::Module& module, ir::Node& read,
                const std::vector<ir::Node*>& loops, ir::Node& value);

// The alloc of `proc` named `name`; null when there is none.
ir::Node* AllocNamed(ir::Node& proc, const std::string& name);

// Lays the buffer that `alloc` declares out by tiles of `rows`: `alloc`
// was made by stage_mem (its copy-in the statement after it, a loop per
// dimension), and tiles of `rows` consecutive indices of its dimension
// `dim` read it. That dimension is divided by `rows` (divide_dim; `rows`
// must divide it), the tiles' dimension made the first and the rows' the
// last (rearrange_dim), the copy's loop of it divided alike (divide_loop,
// perfect) and `proc`'s indices simplified: a tile then reads its rows of
// every other index from one contiguous strip (a matmul with A stored
// transposed, A[k, i], reads the 7 rows of a tile at each step of k from
// one line instead of a line of its own per step, 8 KiB apart at 2048).
absl::Status LayOutByTiles(ir::Module& module, ir::Node& proc, ir::Node& alloc,
                           int64_t dim, int64_t rows);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_LAYOUT_H_
