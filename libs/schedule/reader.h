// Reading a schedule's text (formats/schedule/README.md) into its
// directives and definitions, located for diagnostics. Only the syntax is
// checked here: which directives exist and what their arguments mean is
// the business of expansion (expand.h) and binding (bind.h).
#ifndef TESSEL_LIBS_SCHEDULE_READER_H_
#define TESSEL_LIBS_SCHEDULE_READER_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/schedule/schedule.h"

namespace tessel::schedule {

// Errors are `FILENAME:LINE:COL: error: ...` diagnostics (InvalidArgument).
absl::StatusOr<Schedule> ReadSchedule(absl::string_view text,
                                      absl::string_view filename);
// The same, of a schedule's source buffer.
absl::StatusOr<Schedule> ReadSchedule(const SourceRef& source);

// One value written alone (a parameter's default, "\"guard\"" or "0"),
// outside any definition.
absl::StatusOr<Value> ReadValue(absl::string_view text);

}  // namespace tessel::schedule

#endif  // TESSEL_LIBS_SCHEDULE_READER_H_
