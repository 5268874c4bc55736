// De Bruijn variables of the tensor level (formats/tir/README.md, "build/
// ifold terms"): `%K` is the argument of the K-th enclosing lam. A Var
// carries only K, so moving terms never leaves a stale binder behind; these
// are the operations that keep K right when terms move between depths
// (LIAR's shifting and substitution).
#ifndef TESSEL_LIBS_IR_DE_BRUIJN_H_
#define TESSEL_LIBS_IR_DE_BRUIJN_H_

#include <cstdint>

#include "libs/ir/node.h"

namespace tessel::ir {

// The lam that binds `var`, or null when `var` is free in its tree.
const Node* LamOf(const Node& var);

// Whether a variable of `term` refers to a lam outside `term`, `depth` or
// more lams out (by default any lam outside it).
bool HasFreeVars(const Node& term, int64_t depth = 0);

// The uses in `term` of the variable bound `depth` lams outside it (%0 of
// the enclosing lam's body with the default 0).
int64_t Uses(const Node& term, int64_t depth = 0);

// Adds `by` to every variable of `term` that refers to a lam at least
// `cutoff` lams outside `term`: what a term needs when it moves under `by`
// more lams (or out of -`by`, when none of its variables refers to those).
void Shift(Node& term, int64_t by, int64_t cutoff = 0);

// The body of `(lam BODY)` applied to `value` (beta reduction): every use
// of the lam's argument (%0 at the top of `body`, %1 under one more lam,
// ...) becomes a copy of `value`, shifted to its depth, and variables that
// referred past the lam are decremented. Edits `body` in place; returns the
// root of the result (`body` itself unless it was a use of the argument).
Node* Instantiate(Module& module, Node* body, const Node& value);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_DE_BRUIJN_H_
