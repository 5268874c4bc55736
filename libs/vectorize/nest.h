// The loop nests `vectorize` works on, and what it asks of them: a nest
// is loops with literal bounds, each holding the next, around one
// `assign` or `reduce` whose indices are affine in the loops. The
// analysis finds the loop to vectorize and the loop to block in
// registers, and proves with libs/effects that the statement's instances
// may run in any order.
#ifndef TESSEL_LIBS_VECTORIZE_NEST_H_
#define TESSEL_LIBS_VECTORIZE_NEST_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/primitives/linear_form.h"

namespace tessel::vectorize {

// Splits the loops of `proc`'s body (with libs/primitives' fission, which
// proves each split) until every loop holds exactly one statement.
absl::Status SplitIntoNests(ir::Module& module, ir::Node& proc);

// The statements at the bottom of `proc`'s loop nests, in program order.
std::vector<ir::Node*> NestStatements(ir::Node& proc);

// How a nest's statement is vectorized.
enum class Mode {
  kLanes,      // the vector loop indexes the written element's last
               // dimension: each lane writes its own element
  kReduction,  // the vector loop is a reduction loop: lanes accumulate
               // partial sums, added into the one element at the end
  kTranspose,  // an assign whose reads are transposed: the vector loop
               // indexes the written element's last dimension and a
               // read's next-to-last one, the row loop the written
               // element's next-to-last dimension and that read's last;
               // the register tile is one 2-D vector (rows x lanes)
};

// How a read of a transposing nest becomes a 2-D vector of the tile.
enum class TileRead {
  kScalar,      // neither loop indexes it: a broadcast
  kRow,         // the lanes index its last dimension only: a row, broadcast
                // over the tile's rows
  kDirect,      // the lanes its last dimension, the rows its next-to-last
  kTransposed,  // the rows its last dimension, the lanes its next-to-last:
                // read as (lanes x rows), then transposed
};

// The dimensions `loop` indexes in `access` (an element) with coefficient
// 1, as a bit set (bit d for dimension d), or -1 where it indexes any with
// another coefficient or an index is not affine.
int64_t UnitDims(ir::Node& access, const ir::Node& loop);

// The kind of `read` in a transposing nest of `rows` and `lanes`, or
// nullopt for a read that none of them fits.
std::optional<TileRead> TileReadOf(ir::Node& read, const ir::Node& rows,
                                   const ir::Node& lanes);

struct NestPlan {
  Mode mode = Mode::kLanes;
  const ir::Node* vector_loop = nullptr;
  // The parallel loop blocked in registers (another loop of the written
  // element's indices, for lanes one before its last dimension), or none.
  const ir::Node* row_loop = nullptr;
  // Whether lanes past the vector loop's end may run: they read padding or
  // elements no lane of the loop needs, and write nothing (outside the
  // written tensor), or add zero.
  bool paddable = false;
  // Whether the last vector's lanes past the vector loop's end may run
  // masked (transfers that read PAD 0 and write nothing there): for lanes,
  // no integer division (by a masked lane's 0); for a reduction, a summand
  // that is 0 where its reads are.
  bool maskable = false;
};

// The affine form of a control expression in the loops around it (their
// binders are the variables); nullopt when it is not affine.
std::optional<primitives::LinearForm> AffineForm(const ir::Node& expr);

// Checks that `stmt` (an assign or reduce, every loop around it of
// literal bounds) can be vectorized and chooses how: a lane loop when one
// indexes the written element's last dimension with coefficient 1 and
// every read only there, else for a reduce a reduction loop that indexes
// every read only in its last dimension. Unimplemented, a note with the
// statement's location, for a nest of a shape vectorize does not handle
// (no contiguous loop, an operator without a vector form): it stays
// scalar. FailedPrecondition, an error, for what cannot be proven legal
// (instances that do not commute, indices that are not affine, bounds
// that are not literals).
absl::StatusOr<NestPlan> PlanNest(ir::Node& proc, ir::Node& stmt);

// OK when `expr` has a vector form (constants, element reads, scalars,
// arithmetic, casts); Unimplemented, a note saying which operator, when it
// has not.
absl::Status CheckVectorizable(const ir::Node& expr);

// The loops around `stmt` in its proc, outermost first.
std::vector<ir::Node*> LoopsOf(const ir::Node& stmt);

// Whether the body of `loop` declares `buffer` (at any depth): each of
// its iterations has a `buffer` of its own (a packing inside the lanes'
// tile loop), so that instances in two of them never touch one element.
bool Declares(const ir::Node& loop, const ir::Node& buffer);

// The buffer the assign or reduce `stmt` writes; null for another
// statement.
const ir::Node* WrittenBy(const ir::Node& stmt);

// The statement a nest of single-statement loops ends in (through a fill
// kept with its reduction's loops, fill.h).
ir::Node* BottomOf(ir::Node& loop);

// A literal bound's value.
int64_t LiteralOf(const ir::Node& bound);

// The trip count of a loop of literal bounds.
int64_t TripOf(const ir::Node& loop);

// Every element read in `expr`, in order.
void LoadsIn(ir::Node& expr, std::vector<ir::Node*>& loads);

}  // namespace tessel::vectorize

#endif  // TESSEL_LIBS_VECTORIZE_NEST_H_
