// Expansion of a schedule's defined directives (Exo 2's user-defined
// scheduling operations): every call of a definition is replaced by the
// definition's body, its parameters by the call's arguments, until only
// primitives' calls remain. A definition may call others, never itself
// (directly or not): that is an error, found before anything runs.
#ifndef TESSEL_LIBS_SCHEDULE_EXPAND_H_
#define TESSEL_LIBS_SCHEDULE_EXPAND_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/primitives/primitive.h"
#include "libs/schedule/schedule.h"

namespace tessel::schedule {

// A call of a defined directive that a directive was expanded from.
struct CallSite {
  std::string definition;
  Pos pos;
};

// A primitive's call, its arguments' parameters replaced by values.
struct Directive {
  Call call;
  const primitives::PrimitiveSpec* spec = nullptr;
  // The calls of definitions it came from, outermost first (none for a
  // directive written at the top level).
  std::vector<CallSite> via;
};

// The schedule's directives in the order they run. Unknown directives,
// wrong argument counts of definitions and recursion are located errors.
absl::StatusOr<std::vector<Directive>> Expand(
    const Schedule& schedule, const primitives::Registry& registry);

// An error at `pos` (a place in `directive`'s own line), with a note for
// each call of a definition it came through, innermost first; `notes`
// (whole lines, already formatted) follow.
absl::Status DirectiveError(const Schedule& schedule,
                            const Directive& directive, Pos pos,
                            absl::string_view message,
                            absl::string_view notes = "");

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_EXPAND_H_
