// Binding a directive's arguments to its primitive's parameters
// (primitives::PrimitiveSpec): positional arguments in order, then
// keywords, then the defaults of the rest; each value checked against its
// parameter's kind, patterns matched against the procedure as it is now,
// `@name`s resolved (resolve.h), expressions written as text built in the
// scope of the first cursor argument (expr_build.h).
#ifndef TESSEL_LIBS_SCHEDULE_BIND_H_
#define TESSEL_LIBS_SCHEDULE_BIND_H_

#include "absl/status/statusor.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/schedule/expand.h"
#include "libs/schedule/schedule.h"

namespace tessel::schedule {

// The arguments of `directive` for `proc` of `module`. Errors are located
// diagnostics at the argument (or the directive) that does not fit.
absl::StatusOr<primitives::Args> BindArgs(ir::Module& module, ir::Node& proc,
                                          const Schedule& schedule,
                                          const Directive& directive);

// The statement the first cursor argument of `args` (in `spec`'s parameter
// order) points at, or lies in; null when there is none.
ir::Node* FirstStatement(const primitives::PrimitiveSpec& spec,
                         const primitives::Args& args);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_BIND_H_
