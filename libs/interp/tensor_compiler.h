// Compiles a tensor-level `func` (tensor_program.h): infers the type of
// every term by unification, so that literals take the type their context
// gives them even across binders, and checks what evaluation relies on
// (variables bound, ranks, operand types, `lam` only as the function of
// build, ifold and app). Access patterns and named library calls are
// rejected: they come with `saturate`. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_
#define TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_

#include "absl/status/statusor.h"
#include "libs/interp/tensor_program.h"
#include "libs/ir/module.h"

namespace tessel {
namespace tensor {

absl::StatusOr<CompiledFunction> CompileFunction(const Function& function);

// The type of a parameter or result: a scalar or an array with literal
// dimensions.
absl::StatusOr<Type> NamedTypeToType(const NamedType& named);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_
