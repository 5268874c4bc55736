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
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/functional/function_ref.h"
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

// A file written piece by piece as a tool makes its output, so that a large
// output is never held whole: the file at `path`, replaced, or stdout for
// "-". It is opened by the first Write (or by Close, for an empty output),
// so that a tool that fails before its output begins leaves an existing
// file alone. Any failure, including one only reported when the file is
// closed, is an error; a regular file that could not be written completely,
// or that is destroyed without Close (the tool failed while writing it), is
// removed, so that no build step mistakes it for a good output.
class OutputFile {
 public:
  explicit OutputFile(std::string path) : path_(std::move(path)) {}
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  ~OutputFile();

  absl::Status Write(absl::string_view bytes);
  absl::Status Close();

 private:
  absl::Status Open();
  // The error of a failed write or close (`error` an errno value); a regular
  // file is removed.
  absl::Status Fail(int error);

  std::string path_;
  int fd_ = -1;  // of a file (not stdout), once opened
  bool opened_ = false;
  bool regular_ = false;
};

// What a tool writes its output to, a piece at a time.
using TextSink = absl::FunctionRef<absl::Status(absl::string_view)>;

// Writes to `path` as an OutputFile does what `produce` gives its sink,
// then closes it: a tool's output, made and written a piece at a time.
absl::Status WriteOutput(const std::string& path,
                         absl::FunctionRef<absl::Status(TextSink)> produce);

// Writes `bytes` to `path` as an OutputFile does, at once.
absl::Status WriteFile(const std::string& path, absl::string_view bytes);

// Flushes stdout and reports whether everything written to it so far (also
// through std::cout, which shares its buffer) reached its destination.
absl::Status FlushStdout();

}  // namespace tessel

#endif  // TESSEL_LIBS_SUPPORT_FILE_H_
