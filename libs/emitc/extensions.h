// What levels built on the loop level need of emit-c's translator, so that
// they translate their loop-level parts with it rather than with a second
// one: the C of the forms only they have (the CS-1 level's `dsd`
// descriptors), and statements written in a scope of binders no proc has
// (a task's PE coordinates, received element and local arrays). emit-cs1
// is the user (docs/emit-cs1.md).
#ifndef TESSEL_LIBS_EMITC_EXTENSIONS_H_
#define TESSEL_LIBS_EMITC_EXTENSIONS_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "libs/emitc/c_expr.h"
#include "libs/emitc/globals.h"
#include "libs/emitc/scope.h"
#include "libs/emitc/uses.h"
#include "libs/ir/node.h"

namespace tessel::emitc {

struct Extensions {
  // The C value of a `(dsd NAME BASE (EXTENT STRIDE)...)` passed to an
  // instr: `data` points to NAME's first element, `base` is BASE. Without
  // it a dsd is an error (emit-c translates the loop level only).
  std::function<absl::StatusOr<CExpr>(const ir::Node& dsd, const CExpr& data,
                                      const CExpr& base)>
      descriptor;
};

// A binder that statements name but no proc binds. Its binding gives the
// kind, type and view; `binding.c_name` is the C name to use (a file-scope
// array's, which must be in GlobalNames::taken), or empty for a fresh one.
struct OuterBinder {
  const ir::Node* binder = nullptr;
  Binding binding;
};

// The C lines of `stmts` (at indentation `depth`), run only where the
// control expression `guard` holds if it is not null, in a scope of
// `outer`; `c_names` and `used` say, per outer binder, its C name and
// whether the text refers to it.
struct Statements {
  std::string text;
  std::vector<std::string> c_names;
  std::vector<bool> used;
};
absl::StatusOr<Statements> EmitStatements(
    const ir::Module& module, const GlobalNames& globals,
    absl::Span<const OuterBinder> outer, const ir::Node* guard,
    absl::Span<ir::Node* const> stmts, int depth, Needs& needs,
    const Extensions& extensions);

}  // namespace tessel::emitc

#endif  // TESSEL_LIBS_EMITC_EXTENSIONS_H_
