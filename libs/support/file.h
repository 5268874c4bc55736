// Reading and writing whole files, the one way every Tessel tool does it:
// inputs are bounded so that a huge or endless input (`parse /dev/zero`) is
// a diagnostic rather than an allocation failure, and a write that does not
// reach the disk (`-o /dev/full`, a full disk, a closed stdout) is an error
// rather than a silently truncated output.
//
// Errors read `NAME: error: message`, NAME being the path or `<stdin>`;
// stdout has no name, so its errors read `cannot write stdout (REASON)` and
// the tool puts its own name in front (RunTool in libs/cli).
#ifndef TESSEL_LIBS_SUPPORT_FILE_H_
#define TESSEL_LIBS_SUPPORT_FILE_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel {

// The largest source a tool reads: far beyond any real kernel or module, and
// small enough to hold in memory next to what the tools build from it.
inline constexpr int64_t kMaxInputBytes = int64_t{256} << 20;

// The bytes of the file at `path`, or of stdin for "-". Regular files,
// pipes and devices are all read in chunks up to `max_bytes`, so an endless
// stream stops at the limit. Errors: NotFound when the file cannot be
// opened; InvalidArgument for a directory; ResourceExhausted beyond
// `max_bytes`; DataLoss when reading fails.
absl::StatusOr<std::string> ReadFile(const std::string& path,
                                     int64_t max_bytes = kMaxInputBytes);

// Writes `bytes` to `path`, replacing the file, or to stdout for "-". Any
// failure, including one only reported when the file is closed, is an
// error; a regular file that could not be written completely is removed,
// so that no build step mistakes it for a good output.
absl::Status WriteFile(const std::string& path, absl::string_view bytes);

// Flushes stdout and reports whether everything written to it so far (also
// through std::cout, which shares its buffer) reached its destination.
absl::Status FlushStdout();

}  // namespace tessel

#endif  // TESSEL_LIBS_SUPPORT_FILE_H_
