// Expressions a directive writes as text in Exo's syntax ("A[i, 0:16]",
// "n % 4 == 0", "stride(A, 0)") built as TIR (ir::Build), every name
// resolved to the binder in scope at a statement: the enclosing loops, the
// allocs and lets before it in the bodies around it, the procedure's
// parameters; configurations (`cfg.field`) through ResolveForm.
#ifndef TESSEL_LIBS_SCHEDULE_EXPR_BUILD_H_
#define TESSEL_LIBS_SCHEDULE_EXPR_BUILD_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::schedule {

// The expression `text` as a detached tree of `module`, in the scope of
// statement `scope` of `proc` (null: the parameters only). An unknown name
// or a hole is an error.
absl::StatusOr<ir::Node*> BuildExprText(ir::Module& module,
                                        const ir::Node& proc,
                                        const ir::Node* scope,
                                        absl::string_view text);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_EXPR_BUILD_H_
