// The static checks of TIR (formats/tir/README.md, "Static checks"), run by
// every tool after reading a module: names are bound and of the right kind,
// types and ranks agree, control expressions are quasi-affine and never
// depend on data, `in` data is never written, calls match their callees and
// establish their assertions, and every tensor access is within bounds for
// all the values the enclosing loops, conditions and assertions allow
// (decided with isl, for symbolic sizes too).
#ifndef TESSEL_LIBS_IR_VERIFIER_H_
#define TESSEL_LIBS_IR_VERIFIER_H_

#include "absl/status/status.h"
#include "libs/ir/module.h"

namespace tessel {

// Checks every func, proc and instr of `module`. The first error found is
// returned as a located diagnostic (InvalidArgument, from ErrorAt); an
// Internal or ResourceExhausted status means isl failed on a question the
// verifier asked.
absl::Status VerifyModule(const Module& module);

}  // namespace tessel

#endif  // TESSEL_LIBS_IR_VERIFIER_H_
