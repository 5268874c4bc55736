// The parameters of a proc in C: their types, and their bindings in the
// procedure's scope (data by pointer, windows as structs of a data pointer
// and strides, tensors row-major).
#ifndef TESSEL_LIBS_EMITC_PARAMS_H_
#define TESSEL_LIBS_EMITC_PARAMS_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/scope.h"
#include "libs/emitc/uses.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

// Binds the parameters of `proc` in `scope`, in order. Dimensions may use
// the sizes declared before them.
absl::StatusOr<std::vector<Binding*>> BindParameters(const ir::Node& proc,
                                                     Scope& scope,
                                                     const ExprEmitter& expr);

// The C type of a parameter as declared (`const float *restrict` for a
// scalar, a tensor or a vector, `int64_t`, `struct tsl_win_f32_2`); the
// window type it needs, if any, is added to `needs`.
std::string ParameterCType(const ir::Node& param, Needs& needs);

// The window struct type a window parameter is passed as.
WindowType WindowTypeOf(const ir::Node& param);

// The dimensions of a tensor or window type, as C values.
absl::StatusOr<std::vector<CExpr>> Dimensions(const ir::Type& type,
                                              const ExprEmitter& expr);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_PARAMS_H_
