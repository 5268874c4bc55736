// Writes one `proc` as a C function (formats/tir/README.md, "Loop level"),
// in the style of Exo's code generator: data is passed by pointer (scalars
// too, read as `*alpha`), windows as structs of a data pointer and strides,
// `instr` calls as their C templates, allocations through their memory's
// alloc/free templates (freed at the end of the enclosing block), and
// asserts as comments.
#ifndef TESSEL_LIBS_EMITC_PROC_EMITTER_H_
#define TESSEL_LIBS_EMITC_PROC_EMITTER_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "libs/emitc/expr_emitter.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/scope.h"
#include "libs/emitc/uses.h"
#include "libs/ir/module.h"

namespace tessel::emitc {

// Binds the parameters of `proc` in `scope`, in order. Dimensions may use
// the sizes declared before them.
absl::StatusOr<std::vector<Binding*>> BindParameters(const Procedure& proc,
                                                     Scope& scope,
                                                     const ExprEmitter& expr);

// The C type of a parameter as declared (`const float *`, `int64_t`,
// `struct tsl_win_f32_2`), and the window type it needs, if any.
std::string ParameterCType(const Param& param, Needs& needs);

// The window struct type a window parameter is passed as.
WindowType WindowTypeOf(const Param& param);

// The C definition of `proc`, a `proc` (not an `instr`). What it needs at
// file scope (window types, helpers, configurations) is added to `needs`.
absl::StatusOr<std::string> EmitProcedure(const Module& module,
                                          const GlobalNames& globals,
                                          const Procedure& proc, Needs& needs);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_PROC_EMITTER_H_
