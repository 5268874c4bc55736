// The one way a tool reads TIR: read the text, resolve names, elaborate
// types and verify (verifier.h), so that every tool works on the same typed
// IR and none re-checks what another has checked. And the one way a tool
// chooses what to run or wrap.
#ifndef TESSEL_LIBS_VERIFY_READ_H_
#define TESSEL_LIBS_VERIFY_READ_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/support/source.h"

namespace tessel::ir {

// Reads and verifies the module in `source`.
absl::StatusOr<Module> ReadModule(const SourceRef& source);
// Reads and verifies the module in the file at `path` ("-" is stdin).
absl::StatusOr<Module> ReadModuleFile(const std::string& path);

// The proc, func or pe-program a tool runs or wraps: the one named
// `requested` (with or without its '@') or, when `requested` is empty, the
// only one that nothing in the module calls. Instructions are never
// entries.
absl::StatusOr<Node*> FindEntry(const Module& module,
                                absl::string_view requested);

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_VERIFY_READ_H_
