// Writes one `proc` as a C function (formats/tir/README.md, "Loop level"),
// in the style of Exo's code generator: data is passed by pointer (scalars
// too, read as `*alpha`), windows as structs of a data pointer and strides,
// `instr` calls as their C templates, allocations through their memory's
// alloc/free templates (freed at the end of the enclosing block), and
// asserts as comments.
#ifndef TESSEL_LIBS_EMITC_PROC_EMITTER_H_
#define TESSEL_LIBS_EMITC_PROC_EMITTER_H_

#include <string>

#include "absl/status/statusor.h"
#include "libs/emitc/extensions.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/uses.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

// The C definition of `proc`, a `proc` (not an `instr`) of `module`. What
// it needs at file scope (window types, helpers, configurations) is added
// to `needs`. `extensions` translates what the loop level does not have.
absl::StatusOr<std::string> EmitProcedure(const ir::Module& module,
                                          const GlobalNames& globals,
                                          const ir::Node& proc, Needs& needs,
                                          const Extensions& extensions = {});

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_PROC_EMITTER_H_
