// Lowers a checked kernel to a loop-level procedure (formats/kernel/
// README.md, "Lowering to the loop level").
#ifndef TESSEL_LIBS_KERNEL_LOOPS_H_
#define TESSEL_LIBS_KERNEL_LOOPS_H_

#include <vector>

#include "libs/kernel/kernel.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::kernel {

// (proc @NAME (PARAM...) (alloc LOCAL TYPE)... NEST...): inputs are `in`
// parameters and outputs `out` parameters, in declaration order; each
// statement becomes a loop nest over its domain, preceded by an
// initialisation where the statement needs one. A labelled statement's
// nest is a procedure of its own, (proc @NAME.LABEL ...), which the
// kernel's procedure calls where the nest would be: its instances are
// named by the label. The forms are the labelled statements' procedures,
// then the kernel's.
std::vector<Sexpr> LowerToLoops(const Kernel& kernel);

// The type of a tensor as TIR writes it: `f32` or `(f32 16 16)`.
Sexpr TensorTypeSexpr(const Tensor& tensor);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_LOOPS_H_
