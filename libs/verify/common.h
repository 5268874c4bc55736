// Helpers shared by the checks of verifier.h: node text for messages,
// bindable names and operand counts.
#ifndef TESSEL_LIBS_VERIFY_COMMON_H_
#define TESSEL_LIBS_VERIFY_COMMON_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::ir {

// A node as TIR writes it, on one line, for messages: "(+ x 1)".
std::string Text(const Node& node);

// " (at i = 3, n = 4)" for a counterexample's point, or "" for none.
std::string AtPoint(absl::string_view point);

// Checks that `node` has exactly `operands` operands: "'+' takes 2
// operands, found 3". (The reader checks the op table's counts; this is
// for forms whose count depends on what they apply to.)
absl::Status ExpectOperands(const Node& node, size_t operands);

// Checks that the name `binder` binds may be a local variable: not an
// operator of either level, which would make `(NAME ...)` ambiguous.
absl::Status CheckBindableName(const Node& binder);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_COMMON_H_
