// Shapes of Glenside's access patterns (formats/tir/README.md, "Access
// patterns"; Glenside, Tables 1 and 2): each transformer's result shape and
// the conditions under which it is defined.
#ifndef TESSEL_LIBS_VERIFY_ACCESS_H_
#define TESSEL_LIBS_VERIFY_ACCESS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/verify/term_type.h"

namespace tessel::ir {

// Is `op` an access-pattern transformer: access, transpose, cartProd,
// windows, slice, squeeze, flatten, reshape, pair, concat or compute?
bool IsAccessPattern(Op op);

// The positions of the operands of the access pattern `op` that are terms
// (tensors or access patterns); the others are literals and literal lists.
std::vector<size_t> AccessPatternTerms(Op op);

// The type of the access pattern `term` whose term operands (at
// AccessPatternTerms(term.op())) have the types `operands`.
absl::StatusOr<TermType> InferAccessPattern(
    const Node& term, const std::vector<TermType>& operands,
    LiteralGroups& groups);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_ACCESS_H_
