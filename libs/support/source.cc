#include "libs/support/source.h"

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

absl::StatusOr<SourceRef> ReadSource(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return MakeSource(path == "-" ? "<stdin>" : path, *std::move(text));
}

SourceRef MakeSource(std::string name, std::string text) {
  return std::make_shared<const SourceBuffer>(std::move(name), std::move(text));
}

std::string FormatDiagnostic(const Location& loc, absl::string_view message) {
  if (loc.source == nullptr) return absl::StrCat("error: ", message);
  if (!loc.known()) {
    return absl::StrCat(loc.source->name(), ": error: ", message);
  }
  absl::string_view line = loc.source->Line(loc.line);
  // The caret line repeats tabs so that it lines up under the column.
  std::string caret;
  for (int i = 1; i < loc.col && static_cast<size_t>(i - 1) < line.size();
       ++i) {
    caret.push_back(line[i - 1] == '\t' ? '\t' : ' ');
  }
  caret.push_back('^');
  return absl::StrCat(loc.source->name(), ":", loc.line, ":", loc.col,
                      ": error: ", message, "\n", line, "\n", caret);
}

absl::Status ErrorAt(const Location& loc, absl::string_view message) {
  return absl::InvalidArgumentError(FormatDiagnostic(loc, message));
}

}  // namespace tessel
