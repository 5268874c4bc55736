// Running a schedule: its directives (definitions expanded, expand.h) one
// after another on a procedure, each bound (bind.h), run, and the
// procedure re-verified (its bounds and calls' contracts once, on the
// result, unless `verify_each`). The first directive that does not apply ends it
// with a diagnostic: where the directive is, the directive, the
// primitive's reason (the condition that failed and its witness) and the
// code the directive points at.
#ifndef TESSEL_LIBS_SCHEDULE_APPLY_H_
#define TESSEL_LIBS_SCHEDULE_APPLY_H_

#include "absl/status/status.h"
#include "libs/ir/node.h"
#include "libs/primitives/primitive.h"
#include "libs/schedule/schedule.h"

namespace tessel::schedule {

struct ApplyOptions {
  // Whether the bounds of every access and the contracts of every call
  // (ir::ProcChecks::bounds, ::contracts) are checked after every
  // directive, not only on the result. Each primitive proves its own
  // conditions, so a directive that breaks them is a bug in its primitive:
  // the final check rejects the schedule all the same, and this names the
  // directive, at several times the cost of a long schedule.
  bool verify_each = false;
};

// Schedules `proc` of `module` (a verified module). A primitive may
// replace the proc (rename does): the module holds the result. On an
// error the module holds the directives applied before the failing one.
absl::Status ApplySchedule(ir::Module& module, ir::Node& proc,
                           const Schedule& schedule,
                           const primitives::Registry& registry,
                           const ApplyOptions& options = ApplyOptions());

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_APPLY_H_
