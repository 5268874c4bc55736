// emit-c: a loop-level TIR module as one readable C99 translation unit
// (docs/emit-c.md). Every `proc` becomes a C function, callees first;
// `instr` calls expand to their C templates, configurations become global
// structs, windows become structs of a data pointer and strides. With a
// harness, the unit also gets a `main` that runs an entry on .npy files.
//
// emit-c reads the typed IR as ir::ReadModule gives it, verified and
// elaborated: names are resolved to their binders and every value has its
// type, so nothing here re-reads syntax or re-derives a type.
#ifndef TESSEL_LIBS_EMITC_EMIT_C_H_
#define TESSEL_LIBS_EMITC_EMIT_C_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"

namespace tessel::emitc {

// OK if `module` is at a level emit-c translates: the CS-1 level
// (pe-programs) is emit-cs1's. EmitC checks it too; a tool checks it first
// to report it before anything about a harness entry.
absl::Status CheckLevel(const ir::Module& module);

// The procs (not instrs) of `module`, each after the procs it calls, and
// otherwise in file order: the order C needs them in. The verifier has
// rejected recursion.
std::vector<const ir::Node*> ProceduresCalleesFirst(const ir::Module& module);

// The C text of `module`, which the verifier has accepted: its kernels
// only. Constructs the C output cannot express (an unknown template
// placeholder) are errors.
absl::StatusOr<std::string> EmitC(const ir::Module& module);

// The same with a harness `main` that runs `entry` (a proc of `module`, as
// ir::FindEntry chooses it), whose size parameters `sizes` binds (-D
// NAME=VALUE): every one of them, and nothing else.
absl::StatusOr<std::string> EmitC(const ir::Module& module,
                                  const ir::Node& entry,
                                  const std::map<std::string, int64_t>& sizes);
// Either, a function at a time to `write` (a tool writes the file as it
// is made): with a harness when `entry` is not null. Errors come before any
// text.
absl::Status EmitC(const ir::Module& module, const ir::Node* entry,
                   const std::map<std::string, int64_t>& sizes,
                   ir::TextSink write);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_EMIT_C_H_
