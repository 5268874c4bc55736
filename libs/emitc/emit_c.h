// emit-c: a loop-level TIR module as one readable C99 translation unit
// (docs/emit-c.md). Every `proc` becomes a C function, callees first;
// `instr` calls expand to their C templates, configurations become global
// structs, windows become structs of a data pointer and strides. With a
// harness, the unit also gets a `main` that runs the entry on .npy files.
#ifndef TESSEL_LIBS_EMITC_EMIT_C_H_
#define TESSEL_LIBS_EMITC_EMIT_C_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/statusor.h"
#include "libs/ir/module.h"

namespace tessel::emitc {

struct EmitOptions {
  bool harness = false;
  // The proc main runs (with or without its '@'); empty for the module's
  // only entry (FindEntry).
  std::string entry;
  // The values of the entry's size parameters (-D NAME=VALUE).
  std::map<std::string, int64_t> sizes;
};

// The C text of `module`, which the verifier has accepted. Constructs the
// C output cannot express (an unknown template placeholder, an access to a
// memory that is not addressable, an unbound harness size) are errors.
absl::StatusOr<std::string> EmitC(const Module& module,
                                  const EmitOptions& options);

// The emit-c tool: reads the module at `path` ("-" is stdin), verifies it
// and emits it.
absl::StatusOr<std::string> EmitCFile(const std::string& path,
                                      const EmitOptions& options);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_EMIT_C_H_
