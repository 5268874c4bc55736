// The names a schedule gives (a renamed procedure, new loops and
// buffers): identifiers, as in Exo (Python) and in the C that emit-c
// writes, so that every name a primitive creates prints, reads back and
// compiles.
#ifndef TESSEL_LIBS_PRIMITIVES_NAMES_H_
#define TESSEL_LIBS_PRIMITIVES_NAMES_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::primitives {

// Letters, digits and '_', not starting with a digit.
bool IsIdentifier(absl::string_view name);

// OK when `name` is an identifier used nowhere in `proc` (and naming no
// top-level form); InvalidArgument "WHAT: ..." otherwise.
absl::Status CheckNewName(const ir::Module& module, const ir::Node& proc,
                          const std::string& name, absl::string_view what);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_NAMES_H_
