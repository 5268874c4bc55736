#include "libs/sexpr/printer.h"

#include "absl/strings/str_cat.h"

namespace tessel {
namespace {

void AppendFlat(const Sexpr& form, std::string& out) {
  if (form.is_atom()) {
    out += AtomText(form);
    return;
  }
  out.push_back('(');
  for (size_t i = 0; i < form.size(); ++i) {
    if (i > 0) out.push_back(' ');
    AppendFlat(form[i], out);
  }
  out.push_back(')');
}

// How many operands after the head stay on the head's line when a form is
// broken over several lines: what the language's `header` rule says, or the
// leading atoms.
int HeaderOperands(const Sexpr& form, HeaderRule header) {
  int count = header != nullptr ? header(form) : -1;
  if (count >= 0) return count;
  int leading_atoms = 0;
  for (size_t i = 1; i < form.size() && form[i].is_atom(); ++i) {
    ++leading_atoms;
  }
  return leading_atoms;
}

// The width of `form` printed on one line when it is at most `limit`, else
// some width above `limit`: found without writing the text, and stopping
// as soon as it is too wide, so that deciding how to break a form nested
// N deep takes time proportional to its size, not N times its size.
int FlatWidth(const Sexpr& form, int limit) {
  if (form.is_atom()) return static_cast<int>(AtomText(form).size());
  int width = 1;  // '('
  for (size_t i = 0; i < form.size() && width <= limit; ++i) {
    if (i > 0) ++width;
    width += FlatWidth(form[i], limit - width);
  }
  return width + 1;  // ')'
}

void AppendBroken(const Sexpr& form, int indent, HeaderRule header,
                  std::string& out);

void Append(const Sexpr& form, int indent, HeaderRule header,
            std::string& out) {
  // `indent` is the column at which `form` starts.
  if (form.is_atom() ||
      indent + FlatWidth(form, kPrintWidth - indent) <= kPrintWidth) {
    AppendFlat(form, out);
    return;
  }
  AppendBroken(form, indent, header, out);
}

int CurrentColumn(const std::string& out) {
  size_t newline = out.rfind('\n');
  return static_cast<int>(
      newline == std::string::npos ? out.size() : out.size() - newline - 1);
}

void AppendBroken(const Sexpr& form, int indent, HeaderRule header,
                  std::string& out) {
  out.push_back('(');
  if (form.size() == 0) {
    out.push_back(')');
    return;
  }
  // A list without a head symbol (a parameter list, say) puts each item on
  // its own line, aligned just inside the parenthesis.
  if (form.head().empty()) {
    for (size_t i = 0; i < form.size(); ++i) {
      if (i > 0) out += "\n" + std::string(indent + 1, ' ');
      Append(form[i], indent + 1, header, out);
    }
    out.push_back(')');
    return;
  }
  out += form[0].text();
  size_t header_end = std::min(
      form.size(), static_cast<size_t>(1 + HeaderOperands(form, header)));
  for (size_t i = 1; i < header_end; ++i) {
    // A header operand (after the first, usually a short name) that would
    // overflow the line but fits on a line of its own continues there,
    // indented further than the body so that the two stay apart; one too
    // long for that is broken in place.
    int width = FlatWidth(form[i], kPrintWidth);
    if (i > 1 && CurrentColumn(out) + 1 + width > kPrintWidth &&
        indent + 4 + width <= kPrintWidth) {
      out += "\n" + std::string(indent + 4, ' ');
    } else {
      out.push_back(' ');
    }
    Append(form[i], CurrentColumn(out), header, out);
  }
  for (size_t i = header_end; i < form.size(); ++i) {
    out += "\n" + std::string(indent + 2, ' ');
    Append(form[i], indent + 2, header, out);
  }
  out.push_back(')');
}

}  // namespace

std::string PrintFlat(const Sexpr& form) {
  std::string out;
  AppendFlat(form, out);
  return out;
}

std::string PrintSexpr(const Sexpr& form, int indent, HeaderRule header) {
  std::string out;
  Append(form, indent, header, out);
  return out;
}

std::string PrintForms(const std::vector<Sexpr>& forms, HeaderRule header) {
  std::string out;
  for (size_t i = 0; i < forms.size(); ++i) {
    if (i > 0) out += "\n";
    Append(forms[i], 0, header, out);
    out += "\n";
  }
  return out;
}

}  // namespace tessel
