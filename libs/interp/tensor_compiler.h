// Compiles a verified tensor-level `func` (tensor_program.h). Elaboration
// has typed every term (literals by their context, across binders too), so
// compilation reads each term's type from the IR and chooses opcodes by op
// and type: index arithmetic where the operands are indices, data
// arithmetic where they are elements. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_
#define TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_

#include "absl/status/statusor.h"
#include "libs/interp/tensor_program.h"
#include "libs/ir/node.h"

namespace tessel {
namespace tensor {

// `function` is a Func node.
absl::StatusOr<CompiledFunction> CompileFunction(const ir::Node& function);

// Compiles one term and the terms under it.
absl::StatusOr<Term> CompileTerm(const ir::Node& node);

// The evaluator's form of `type`, the type of `at`: a tensor-level type
// with constant dimensions.
absl::StatusOr<Type> LayoutOf(const ir::Type& type, const ir::Node& at);

}  // namespace tensor
}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_TENSOR_COMPILER_H_
