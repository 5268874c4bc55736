// Helpers shared by the checks of verifier.h: reserved names and operand
// counts.
#ifndef TESSEL_LIBS_IR_VERIFY_COMMON_H_
#define TESSEL_LIBS_IR_VERIFY_COMMON_H_

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"

namespace tessel {

// Operator and form names of either level. A variable with one of these
// names would make `(NAME ...)` ambiguous, so none may be bound.
bool IsReservedName(absl::string_view name);

// Checks that the list `form` has exactly `operands` items after its head:
// "'+' takes 2 operands, found 3".
absl::Status ExpectOperands(const Sexpr& form, size_t operands);

// Checks that `name` may be bound as a local variable: a symbol that is not
// reserved. `what` says what is being bound ("loop variable").
absl::Status CheckBindableName(const Sexpr& name, absl::string_view what);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFY_COMMON_H_
