// The rewrite: one tensor-level func (named calls already expanded) into
// one loop-level proc over buffers, in destination-passing style. Every
// value-producing term is emitted into a destination: the proc's `out`
// parameter for a result, a buffer of an operand when the in-place
// analysis (in_place.h) allows it, else a new alloc. Views (access
// patterns that only rearrange elements, `index` of a tensor) are index
// maps into their operand's buffer (view.h).
#ifndef TESSEL_LIBS_BUFFERIZE_LOWERING_H_
#define TESSEL_LIBS_BUFFERIZE_LOWERING_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/bufferize/stats.h"
#include "libs/ir/node.h"
#include "libs/support/source.h"

namespace tessel::bufferize {

// An out-of-place decision and why it was made.
struct Conflict {
  Location loc;         // the operation that did not write in place
  std::string message;
};

struct LoweredFunc {
  std::string proc;  // TIR text of the proc, not yet verified
  Stats stats;
  std::vector<Conflict> conflicts;
};

// `func` is a verified Func without named calls.
absl::StatusOr<LoweredFunc> LowerFunc(const ir::Node& func);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_LOWERING_H_
