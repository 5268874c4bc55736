#include "libs/support/source.h"

#include <algorithm>
#include <limits>

#include "absl/strings/str_cat.h"
#include "libs/support/file.h"

namespace tessel {

SourceBuffer::SourceBuffer(std::string name, std::string text)
    : name_(std::move(name)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < text_.size(); ++i) {
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
  }
}

absl::string_view SourceBuffer::Line(int line) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts_.size()) return {};
  size_t begin = line_starts_[line - 1];
  size_t end = text_.find('\n', begin);
  if (end == std::string::npos) end = text_.size();
  return absl::string_view(text_).substr(begin, end - begin);
}

std::optional<uint32_t> SourceBuffer::Offset(int line, int col) const {
  if (line < 1 || static_cast<size_t>(line) > line_starts_.size() || col < 1) {
    return std::nullopt;
  }
  size_t begin = line_starts_[line - 1];
  size_t end = static_cast<size_t>(line) < line_starts_.size()
                   ? line_starts_[line] - 1  // the newline
                   : text_.size();
  size_t offset = begin + static_cast<size_t>(col) - 1;
  if (offset > end || offset >= std::numeric_limits<uint32_t>::max()) {
    return std::nullopt;
  }
  return static_cast<uint32_t>(offset);
}

std::pair<int, int> SourceBuffer::LineColumn(uint32_t offset) const {
  auto after = std::upper_bound(line_starts_.begin(), line_starts_.end(),
                                static_cast<size_t>(offset));
  size_t line = static_cast<size_t>(after - line_starts_.begin());
  return {static_cast<int>(line),
          static_cast<int>(offset - line_starts_[line - 1]) + 1};
}

absl::StatusOr<SourceRef> ReadSource(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return MakeSource(path == "-" ? "<stdin>" : path, *std::move(text));
}

SourceRef MakeSource(std::string name, std::string text) {
  return std::make_shared<const SourceBuffer>(std::move(name), std::move(text));
}

namespace {

// The most of a source line a diagnostic shows: a window around the column,
// so that a huge one-line input (a minified file, /dev/zero) gives a
// readable message.
constexpr size_t kMaxShownLine = 160;

// `text` with control characters (a NUL, an escape) shown as '?', so that a
// diagnostic cannot write them to a terminal; a tab stays, to line up the
// caret.
std::string Printable(absl::string_view text) {
  std::string out(text);
  for (char& c : out) {
    unsigned char byte = static_cast<unsigned char>(c);
    if ((byte < 0x20 && c != '\t') || byte == 0x7f) c = '?';
  }
  return out;
}

}  // namespace

std::string FormatDiagnostic(const Location& loc, absl::string_view message) {
  if (loc.source == nullptr) return absl::StrCat("error: ", message);
  if (!loc.known()) {
    return absl::StrCat(loc.source->name(), ": error: ", message);
  }
  absl::string_view line = loc.source->Line(loc.line);
  size_t column = std::min<size_t>(loc.col - 1, line.size());
  size_t begin = 0;
  size_t end = line.size();
  if (line.size() > kMaxShownLine) {
    begin = column > kMaxShownLine / 2 ? column - kMaxShownLine / 2 : 0;
    begin = std::min(begin, line.size() - kMaxShownLine);
    end = begin + kMaxShownLine;
  }
  std::string shown = absl::StrCat(begin > 0 ? "..." : "",
                                   Printable(line.substr(begin, end - begin)),
                                   end < line.size() ? "..." : "");
  // The caret line repeats tabs so that it lines up under the column.
  std::string caret(begin > 0 ? 3 : 0, ' ');
  for (size_t i = begin; i < column; ++i) {
    caret.push_back(line[i] == '\t' ? '\t' : ' ');
  }
  caret.push_back('^');
  return absl::StrCat(loc.source->name(), ":", loc.line, ":", loc.col,
                      ": error: ", message, "\n", shown, "\n", caret);
}

absl::Status ErrorAt(const Location& loc, absl::string_view message) {
  return absl::InvalidArgumentError(FormatDiagnostic(loc, message));
}

}  // namespace tessel
