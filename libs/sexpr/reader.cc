#include "libs/sexpr/reader.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"

namespace tessel {
namespace {

bool IsDelimiter(char c) {
  return std::isspace(static_cast<unsigned char>(c)) || c == '(' || c == ')' ||
         c == '"' || c == ';';
}

}  // namespace

class SexprReader::Impl {
 public:
  explicit Impl(SourceRef source)
      : source_(std::move(source)), text_(source_->text()) {}

  absl::StatusOr<std::optional<Sexpr>> Next() {
    SkipSpace();
    if (pos_ >= text_.size()) return std::nullopt;
    if (text_[pos_] == ')') return Error(Here(), "unexpected ')'");
    auto form = Read(0);
    if (!form.ok()) return form.status();
    return *std::move(form);
  }

 private:
  Location Here() const { return Location{source_, line_, col_}; }

  absl::Status Error(const Location& loc, absl::string_view message) const {
    return ErrorAt(loc, message);
  }

  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }

  void SkipSpace() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == ';') {
        while (pos_ < text_.size() && text_[pos_] != '\n') Advance();
      } else if (std::isspace(static_cast<unsigned char>(c))) {
        Advance();
      } else {
        return;
      }
    }
  }

  absl::StatusOr<Sexpr> Read(int depth) {
    Location loc = Here();
    char c = text_[pos_];
    if (c == '(') return ReadList(loc, depth);
    if (c == '"') return ReadString(loc);
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
      return Error(loc, "unexpected control character");
    }
    return ReadAtom(loc);
  }

  absl::StatusOr<Sexpr> ReadList(const Location& open, int depth) {
    if (depth >= kMaxSexprDepth) {
      return Error(open, absl::StrCat("lists nest deeper than ", kMaxSexprDepth,
                                      " levels"));
    }
    Advance();  // '('
    std::vector<Sexpr> items;
    while (true) {
      SkipSpace();
      if (pos_ >= text_.size()) {
        return Error(open, "unterminated list: no ')' matches this '('");
      }
      if (text_[pos_] == ')') {
        Advance();
        return Sexpr::List(std::move(items), open);
      }
      auto item = Read(depth + 1);
      if (!item.ok()) return item.status();
      items.push_back(*std::move(item));
    }
  }

  absl::StatusOr<Sexpr> ReadString(const Location& open) {
    Advance();  // '"'
    std::string value;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_];
      if (c == '\n') break;
      if (c == '\\') {
        Location escape = Here();
        Advance();
        if (pos_ >= text_.size()) break;
        switch (text_[pos_]) {
          case 'n':
            value.push_back('\n');
            break;
          case 't':
            value.push_back('\t');
            break;
          case '"':
            value.push_back('"');
            break;
          case '\\':
            value.push_back('\\');
            break;
          default:
            return Error(escape, "unknown escape sequence in string");
        }
        Advance();
        continue;
      }
      value.push_back(c);
      Advance();
    }
    if (pos_ >= text_.size() || text_[pos_] != '"') {
      return Error(open, "unterminated string");
    }
    Advance();
    return Sexpr::String(std::move(value), open);
  }

  absl::StatusOr<Sexpr> ReadAtom(const Location& loc) {
    size_t begin = pos_;
    while (pos_ < text_.size() && !IsDelimiter(text_[pos_])) Advance();
    absl::string_view token(text_.data() + begin, pos_ - begin);
    if (token == "inf") {
      return Sexpr::Float(std::numeric_limits<double>::infinity(), loc);
    }
    if (token == "-inf") {
      return Sexpr::Float(-std::numeric_limits<double>::infinity(), loc);
    }
    if (token == "nan") {
      return Sexpr::Float(std::numeric_limits<double>::quiet_NaN(), loc);
    }
    if (!LooksNumeric(token)) return Sexpr::Symbol(std::string(token), loc);
    return ReadNumber(token, loc);
  }

  // A token is a number when it starts with a digit, or with a sign or a
  // '.' followed by a digit; anything else is a symbol (`-`, `+`, `@x`).
  static bool LooksNumeric(absl::string_view token) {
    size_t i = 0;
    if (i < token.size() && (token[i] == '-' || token[i] == '+')) ++i;
    if (i < token.size() && token[i] == '.') ++i;
    return i < token.size() &&
           std::isdigit(static_cast<unsigned char>(token[i]));
  }

  absl::StatusOr<Sexpr> ReadNumber(absl::string_view token,
                                   const Location& loc) {
    absl::string_view digits = token;
    if (!digits.empty() && digits[0] == '+') digits.remove_prefix(1);
    const char* end = digits.data() + digits.size();
    bool is_float = digits.find_first_of(".eE") != absl::string_view::npos;
    if (!is_float) {
      int64_t value = 0;
      auto result = std::from_chars(digits.data(), end, value);
      if (result.ec == std::errc::result_out_of_range) {
        return Error(loc, absl::StrCat("integer literal '", token,
                                       "' does not fit in 64 bits"));
      }
      if (result.ec != std::errc() || result.ptr != end) {
        return Error(loc, absl::StrCat("malformed number '", token, "'"));
      }
      return Sexpr::Int(value, loc);
    }
    double value = 0;
    auto result = std::from_chars(digits.data(), end, value);
    if (result.ec != std::errc() || result.ptr != end ||
        !std::isfinite(value)) {
      return Error(loc, absl::StrCat("malformed number '", token, "'"));
    }
    return Sexpr::Float(value, loc);
  }

  SourceRef source_;
  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

namespace {

// Skips blanks and comments from `pos`, as SexprReader does.
size_t SkipSpace(absl::string_view text, size_t pos) {
  while (pos < text.size()) {
    if (text[pos] == ';') {
      while (pos < text.size() && text[pos] != '\n') ++pos;
    } else if (std::isspace(static_cast<unsigned char>(text[pos]))) {
      ++pos;
    } else {
      break;
    }
  }
  return pos;
}

// The offset just after the datum at `pos` (read before, so well formed).
size_t SkipDatum(absl::string_view text, size_t pos) {
  if (text[pos] == '(') {
    pos = SkipSpace(text, pos + 1);
    while (pos < text.size() && text[pos] != ')') {
      pos = SkipSpace(text, SkipDatum(text, pos));
    }
    return pos + 1;
  }
  if (text[pos] == '"') {
    for (++pos; pos < text.size() && text[pos] != '"'; ++pos) {
      if (text[pos] == '\\') ++pos;
    }
    return pos + 1;
  }
  while (pos < text.size() && !IsDelimiter(text[pos])) ++pos;
  return pos;
}

}  // namespace

std::vector<uint32_t> ListItemOffsets(absl::string_view text, uint32_t open) {
  std::vector<uint32_t> items;
  size_t pos = SkipSpace(text, open + 1);
  while (pos < text.size() && text[pos] != ')') {
    items.push_back(static_cast<uint32_t>(pos));
    pos = SkipSpace(text, SkipDatum(text, pos));
  }
  return items;
}

SexprReader::SexprReader(SourceRef source)
    : impl_(std::make_unique<Impl>(std::move(source))) {}

SexprReader::~SexprReader() = default;

absl::StatusOr<std::optional<Sexpr>> SexprReader::Next() {
  return impl_->Next();
}

absl::StatusOr<std::vector<Sexpr>> ReadSexprs(const SourceRef& source) {
  SexprReader reader(source);
  std::vector<Sexpr> forms;
  while (true) {
    auto form = reader.Next();
    if (!form.ok()) return form.status();
    if (!form->has_value()) return forms;
    forms.push_back(**std::move(form));
  }
}

}  // namespace tessel
