// Source buffers and locations, and the one diagnostic format every Tessel
// tool prints: `file:line:col: error: message`, the offending line, a caret.
#ifndef TESSEL_LIBS_SUPPORT_SOURCE_H_
#define TESSEL_LIBS_SUPPORT_SOURCE_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel {

// The text of one input (a file or stdin) and where its lines start.
class SourceBuffer {
 public:
  SourceBuffer(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // The text of 1-based line `line`, without its newline.
  absl::string_view Line(int line) const;

 private:
  std::string name_;
  std::string text_;
  std::vector<size_t> line_starts_;
};

using SourceRef = std::shared_ptr<const SourceBuffer>;

// Reads `path` ("-" is stdin, named `<stdin>`) into a buffer with ReadFile
// (libs/support/file.h), whose errors it returns.
absl::StatusOr<SourceRef> ReadSource(const std::string& path);
SourceRef MakeSource(std::string name, std::string text);

// A point in a source buffer. Nodes built by transformations have no source
// and report errors without a line.
struct Location {
  SourceRef source;
  int line = 0;  // 1-based; 0 means unknown.
  int col = 0;   // 1-based.

  bool known() const { return source != nullptr && line > 0; }
};

// Formats a diagnostic: with a known location, `file:line:col: error: msg`
// followed by the source line and a caret under the column.
std::string FormatDiagnostic(const Location& loc, absl::string_view message);

// An InvalidArgument status whose message is the formatted diagnostic.
absl::Status ErrorAt(const Location& loc, absl::string_view message);

}  // namespace tessel

#endif  // TESSEL_LIBS_SUPPORT_SOURCE_H_
