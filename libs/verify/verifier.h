// Elaboration and the static checks of TIR (formats/tir/README.md, "Static
// checks", "Typed IR"), run by every tool after reading a module: gives
// every node its type, literals included, and checks that names are of the
// right kind, types and ranks agree, control expressions are quasi-affine
// and never depend on data, `in` data is never written, calls match their
// callees and establish their assertions, and every tensor access is within
// bounds for all the values the enclosing loops, conditions and assertions
// allow (decided with isl, for symbolic sizes too).
#ifndef TESSEL_LIBS_VERIFY_VERIFIER_H_
#define TESSEL_LIBS_VERIFY_VERIFIER_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/verify/proc_checks.h"

namespace tessel::ir {

// Types and checks every func, proc and instr of `module`. The first error
// found is returned as a located diagnostic (InvalidArgument, from
// ErrorAt); an Internal or ResourceExhausted status means isl failed on a
// question the verifier asked.
absl::Status VerifyModule(Module& module);

// Types and checks one proc, instr or pe-program of `module` after an edit,
// against the rest of the module, which must have been verified and is not
// checked again: a scheduling primitive that rewrites one procedure checks
// that one. The callers are not checked: when the edit changes what they
// rely on (the signature, the assertions, the configuration it writes),
// verify them too.
absl::Status VerifyProc(Module& module, Node& proc,
                        ProcChecks checks = ProcChecks());

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_VERIFIER_H_
