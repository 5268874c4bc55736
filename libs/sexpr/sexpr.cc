#include "libs/sexpr/sexpr.h"

#include <charconv>
#include <cmath>

#include "absl/strings/str_cat.h"

namespace tessel {

Sexpr Sexpr::Symbol(std::string name, Location loc) {
  Sexpr s;
  s.kind_ = SexprKind::kSymbol;
  s.text_ = std::move(name);
  s.loc_ = std::move(loc);
  return s;
}

Sexpr Sexpr::Int(int64_t value, Location loc) {
  Sexpr s;
  s.kind_ = SexprKind::kInt;
  s.int_ = value;
  s.loc_ = std::move(loc);
  return s;
}

Sexpr Sexpr::Float(double value, Location loc) {
  Sexpr s;
  s.kind_ = SexprKind::kFloat;
  s.float_ = value;
  s.loc_ = std::move(loc);
  return s;
}

Sexpr Sexpr::String(std::string value, Location loc) {
  Sexpr s;
  s.kind_ = SexprKind::kString;
  s.text_ = std::move(value);
  s.loc_ = std::move(loc);
  return s;
}

Sexpr Sexpr::List(std::vector<Sexpr> items, Location loc) {
  Sexpr s;
  s.kind_ = SexprKind::kList;
  s.items_ = std::move(items);
  s.loc_ = std::move(loc);
  return s;
}

absl::string_view Sexpr::head() const {
  if (!is_list() || items_.empty() || !items_[0].is_symbol()) return {};
  return items_[0].text_;
}

bool operator==(const Sexpr& a, const Sexpr& b) {
  if (a.kind_ != b.kind_) return false;
  switch (a.kind_) {
    case SexprKind::kSymbol:
    case SexprKind::kString:
      return a.text_ == b.text_;
    case SexprKind::kInt:
      return a.int_ == b.int_;
    case SexprKind::kFloat:
      // Bitwise, so that equality agrees with printing (-0.0 and NaN).
      return std::signbit(a.float_) == std::signbit(b.float_) &&
             (a.float_ == b.float_ ||
              (std::isnan(a.float_) && std::isnan(b.float_)));
    case SexprKind::kList:
      return a.items_ == b.items_;
  }
  return false;
}

namespace {

std::string FloatText(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  char buffer[64];
  // Shortest text that reads back as the same double.
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  std::string text(buffer, result.ptr);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string QuoteString(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        out.push_back(c);
    }
  }
  out.push_back('"');
  return out;
}

}  // namespace

std::string AtomText(const Sexpr& atom) {
  switch (atom.kind()) {
    case SexprKind::kSymbol:
      return atom.text();
    case SexprKind::kInt:
      return absl::StrCat(atom.int_value());
    case SexprKind::kFloat:
      return FloatText(atom.float_value());
    case SexprKind::kString:
      return QuoteString(atom.text());
    case SexprKind::kList:
      break;
  }
  return "()";
}

}  // namespace tessel
