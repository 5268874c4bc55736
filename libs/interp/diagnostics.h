// What the interpreter's compilers and executors say about IR nodes in
// their diagnostics. Internal to libs/interp.
#ifndef TESSEL_LIBS_INTERP_DIAGNOSTICS_H_
#define TESSEL_LIBS_INTERP_DIAGNOSTICS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"
#include "libs/sexpr/printer.h"
#include "libs/support/source.h"

namespace tessel {

// The node as TIR writes it, on one line: "(<= m 4)".
inline std::string NodeText(const ir::Node& node) {
  return PrintFlat(ir::WriteNode(node));
}

// The interpreter runs verified, elaborated modules (ir::ReadModule); a node
// that is not what verification guarantees is reported here rather than
// misinterpreted.
inline absl::Status NotVerified(const ir::Node& at, absl::string_view what) {
  return ErrorAt(at.loc(), absl::StrCat("internal error: ", what,
                                        " (run-sim runs only verified "
                                        "modules)"));
}

}  // namespace tessel

#endif  // TESSEL_LIBS_INTERP_DIAGNOSTICS_H_
