// The names a schedule gives (a renamed procedure, new loops and
// buffers): identifiers, as in Exo (Python) and in the C that emit-c
// writes, so that every name a primitive creates prints, reads back and
// compiles.
#ifndef TESSEL_LIBS_PRIMITIVES_NAMES_H_
#define TESSEL_LIBS_PRIMITIVES_NAMES_H_

#include "absl/strings/string_view.h"

namespace tessel::primitives {

// Letters, digits and '_', not starting with a digit.
bool IsIdentifier(absl::string_view name);

}  // namespace tessel::primitives

#endif  // TESSEL_LIBS_PRIMITIVES_NAMES_H_
