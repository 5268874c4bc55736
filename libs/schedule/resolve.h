// Where a schedule's `@name` (a proc, instr, memory or config) is found:
// the one place that knows, so that target libraries can join the module's
// own forms here.
#ifndef TESSEL_LIBS_SCHEDULE_RESOLVE_H_
#define TESSEL_LIBS_SCHEDULE_RESOLVE_H_

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/ir/node.h"

namespace tessel::schedule {

// The top-level form `@name` (`name` without its '@') of `module`; else
// the form of a target library (targets/target_forms.h), imported into
// `module` with what it refers to; else NotFound.
absl::StatusOr<ir::Node*> ResolveForm(ir::Module& module,
                                      absl::string_view name);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_RESOLVE_H_
