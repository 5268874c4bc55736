// Shapes of Glenside's access patterns (formats/tir/README.md, "Access
// patterns"; Glenside, Tables 1 and 2): each transformer's result shape and
// the conditions under which it is defined.
#ifndef TESSEL_LIBS_IR_VERIFY_ACCESS_H_
#define TESSEL_LIBS_IR_VERIFY_ACCESS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/verify_term.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

// Is `head` an access-pattern form: access, transpose, cartProd, windows,
// slice, squeeze, flatten, reshape, pair, concat or compute?
bool IsAccessPatternForm(absl::string_view head);

// The number of operands of the access-pattern form `head`, and the
// positions of those that are terms (tensors or access patterns); the
// other operands are literals.
size_t AccessPatternArity(absl::string_view head);
std::vector<size_t> AccessPatternOperands(absl::string_view head);

// The type of the access-pattern form `term`, which has the right number of
// operands and whose term operands (at AccessPatternOperands(term.head()))
// have the types `operands`.
absl::StatusOr<TermType> InferAccessPattern(
    const Sexpr& term, const std::vector<TermType>& operands);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_ACCESS_H_
