// Lowers a checked kernel to a tensor-level function in LIAR's build/ifold
// form with De Bruijn indices (formats/kernel/README.md, "Lowering to the
// tensor level").
#ifndef TESSEL_LIBS_KERNEL_TERMS_H_
#define TESSEL_LIBS_KERNEL_TERMS_H_

#include "libs/kernel/kernel.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::kernel {

// (func @NAME ((INPUT TYPE)...) ((OUTPUT TYPE)...) TERM). Each statement's
// tensor is a nest of `build`s over its dimensions whose elements fold the
// remaining domain variables with nested `ifold`s, in the order of the loop
// nest, so that sums round exactly as in the loop-level procedure. Tensors
// read by later statements are let-bound with (app (lam REST) VALUE); the
// outputs form a right-nested tuple in declaration order.
Sexpr LowerToTerms(const Kernel& kernel);

}  // namespace tessel::kernel

#endif  // TESSEL_LIBS_KERNEL_TERMS_H_
