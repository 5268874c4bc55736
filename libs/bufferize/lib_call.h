// Named calls that stay calls at the loop level: a call `(LIB.NAME KEY...
// OPERAND...)` whose target library has an instr `@LIB.NAME.KEY...`
// (targets/blas/cblas.tir: `@blas.gemv.T`) is bufferized into a call of
// that instr, whose template is the library's C (CBLAS); every other call
// is expanded into its definition. The instr takes the call's sizes, then
// one data parameter per value operand, in order: scalars, then windows,
// the last one updated in place (`inout`, BLAS's y, A or C) unless one
// more, a scalar `out`, receives the result (dot).
#ifndef TESSEL_LIBS_BUFFERIZE_LIB_CALL_H_
#define TESSEL_LIBS_BUFFERIZE_LIB_CALL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::bufferize {

// The instr that computes `call` (a typed LibCall), or null when none does
// (no instr of that name, or one for another element type or shape).
const ir::Node* InstrForCall(const ir::Node& call);

// The instr for `call` with other TRANS keywords (`keys`, one per matrix
// operand in order): where an operand is the transpose of a window, the
// instr with the other keyword takes the window itself.
const ir::Node* InstrWithKeys(const ir::Node& call,
                              const std::vector<std::string>& keys);

// Whether the instr returns its result in a scalar `out` parameter of its
// own rather than in its last operand.
bool ReturnsScalar(const ir::Node& instr);

// The values of the instr's size parameters, in order, for operands of
// the given extents (one list per value operand; a scalar's is empty).
absl::StatusOr<std::vector<int64_t>> InstrSizes(
    const ir::Node& instr, const std::vector<std::vector<int64_t>>& extents);

}  // namespace tessel::bufferize

#endif  // TESSEL_LIBS_BUFFERIZE_LIB_CALL_H_
