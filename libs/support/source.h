// Source buffers and locations, and the one diagnostic format every Tessel
// tool prints: `file:line:col: error: message`, the offending line, a caret.
#ifndef TESSEL_LIBS_SUPPORT_SOURCE_H_
#define TESSEL_LIBS_SUPPORT_SOURCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tessel {

// The text of one input (a file or stdin) and where its lines start.
// Always held by a SourceRef (MakeSource), so that what keeps a plain
// pointer to a buffer (a node of the IR) can share it again.
class SourceBuffer : public std::enable_shared_from_this<SourceBuffer> {
 public:
  SourceBuffer(std::string name, std::string text);

  const std::string& name() const { return name_; }
  const std::string& text() const { return text_; }
  // The text of 1-based line `line`, without its newline.
  absl::string_view Line(int line) const;

  // The byte offset of 1-based `line` and `col`, when they name a byte of
  // the text or the end of a line (so that LineColumn gives them back).
  std::optional<uint32_t> Offset(int line, int col) const;
  // The 1-based line and column of byte `offset`.
  std::pair<int, int> LineColumn(uint32_t offset) const;

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
