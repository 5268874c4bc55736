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
  // The instrs it calls (lib_call.h), which the module must define.
  std::vector<const ir::Node*> instrs;
  Stats stats;
  std::vector<Conflict> conflicts;
};

// `func` is a verified Func whose named calls all have instrs
// (lib_call.h): the others are expanded first.
// The tensor arguments named in `writable_args` may be written in place
// (the proc takes them `inout` if it does), preferred in that order; the
// others are never written.
absl::StatusOr<LoweredFunc> LowerFunc(
    const ir::Node& func, const std::vector<std::string>& writable_args);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_LOWERING_H_
