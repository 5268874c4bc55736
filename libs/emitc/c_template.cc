#include "libs/emitc/c_template.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace tessel::emitc {
namespace {

bool IsBlank(char c) {
  return absl::ascii_isspace(static_cast<unsigned char>(c));
}

bool IsNameStart(char c) {
  return absl::ascii_isalpha(static_cast<unsigned char>(c)) || c == '_';
}

// The characters of a TIR name (formats/tir/README.md, "Lexical
// structure"), less the braces.
bool IsNameChar(char c) {
  return c != '{' && c != '}' && c != '(' && c != ')' && c != '"' && c != ';' &&
         !IsBlank(c);
}

// The last non-blank character before `pos`, or '\0'.
char PreviousNonBlank(absl::string_view text, size_t pos) {
  while (pos > 0) {
    if (!IsBlank(text[--pos])) return text[pos];
  }
  return '\0';
}

// The first non-blank character at or after `pos`, or '\0'.
char NextNonBlank(absl::string_view text, size_t pos) {
  for (; pos < text.size(); ++pos) {
    if (!IsBlank(text[pos])) return text[pos];
  }
  return '\0';
}

// Templates are often macros, and the preprocessor splits macro arguments
// at every comma outside parentheses, even inside a compound literal's
// braces.
bool HasBareComma(absl::string_view text) {
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) return true;
  }
  return false;
}

}  // namespace

std::vector<TemplatePiece> ParseTemplate(absl::string_view text) {
  std::vector<TemplatePiece> pieces;
  auto append_literal = [&](absl::string_view literal) {
    if (literal.empty()) return;
    if (pieces.empty() || pieces.back().is_placeholder) {
      pieces.push_back(TemplatePiece{});
    }
    absl::StrAppend(&pieces.back().text, literal);
  };
  size_t i = 0;
  while (i < text.size()) {
    size_t open = text.find('{', i);
    if (open == absl::string_view::npos) break;
    size_t end = open + 1;
    if (end < text.size() && IsNameStart(text[end])) {
      while (end < text.size() && IsNameChar(text[end])) ++end;
    }
    if (end == open + 1 || end >= text.size() || text[end] != '}') {
      append_literal(text.substr(i, open + 1 - i));
      i = open + 1;
      continue;
    }
    append_literal(text.substr(i, open - i));
    char before = PreviousNonBlank(text, open);
    char after = NextNonBlank(text, end + 1);
    pieces.push_back(TemplatePiece{
        std::string(text.substr(open + 1, end - open - 1)), true,
        (before == '(' || before == ',') && (after == ')' || after == ',')});
    i = end + 1;
  }
  append_literal(text.substr(i));
  return pieces;
}

absl::StatusOr<std::string> ExpandTemplate(absl::string_view text,
                                           const Location& loc,
                                           absl::string_view owner,
                                           const PlaceholderResolver& resolve) {
  std::string result;
  for (const TemplatePiece& piece : ParseTemplate(text)) {
    if (!piece.is_placeholder) {
      result += piece.text;
      continue;
    }
    auto value = resolve(piece.text);
    if (!value.ok()) return value.status();
    if (!value->has_value()) {
      return ErrorAt(loc, absl::StrCat("unknown placeholder {", piece.text,
                                       "} in ", owner));
    }
    const CExpr& expr = **value;
    if (HasBareComma(expr.text)) {
      absl::StrAppend(&result, "(", expr.text, ")");
    } else {
      result +=
          TextAt(expr, piece.is_argument ? Prec::kConditional : Prec::kPostfix);
    }
  }
  return result;
}

}  // namespace tessel::emitc
