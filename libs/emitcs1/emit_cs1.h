// emit-cs1: a CS-1-level module (a pe-program and the procs and target
// instructions it uses) as per-PE C against targets/cs1/cs1_api.h
// (docs/emit-cs1.md). Every PE runs the same program, parameterised by its
// coordinates: local arrays as PE memory, a setup that configures the
// SIMD engine once per descriptor shape, registers the local arrays with
// the parts of the parameters they hold and registers the tasks, and a C
// function per task. Procs and task calls are translated by emit-c's
// translator (libs/emitc), with descriptors as cs1_api.h's.
#ifndef TESSEL_LIBS_EMITCS1_EMIT_CS1_H_
#define TESSEL_LIBS_EMITCS1_EMIT_CS1_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"

namespace tessel::emitcs1 {

// The pe-program of `module` named `name` (with or without its '@'), or
// its only one when `name` is empty. A module without one (a loop-level
// module) is an error, as a name that names none.
absl::StatusOr<const ir::Node*> FindPeProgram(const ir::Module& module,
                                              absl::string_view name);

// The C of `program`, a pe-program of `module`, which the verifier has
// accepted, to `write`. With `harness`, the text is one program that runs
// on the host: emit-c's runtime, cs1_api.h and its host implementation
// (targets/cs1/cs1_host.c) around the PE's code. Errors come before any
// text.
absl::Status EmitCs1(const ir::Module& module, const ir::Node& program,
                     bool harness, ir::TextSink write);
absl::StatusOr<std::string> EmitCs1(const ir::Module& module,
                                    const ir::Node& program, bool harness);

}  // namespace tessel::emitcs1

#endif  // TESSEL_LIBS_EMITCS1_EMIT_CS1_H_
