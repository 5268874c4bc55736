// The canonical printer. Its output depends only on the tree (never on how
// the tree was written), so print-read-print is the identity on text and
// every tool's output is byte-for-byte deterministic.
#ifndef TESSEL_LIBS_SEXPR_PRINTER_H_
#define TESSEL_LIBS_SEXPR_PRINTER_H_

#include <string>
#include <vector>

#include "libs/sexpr/sexpr.h"

namespace tessel {

inline constexpr int kPrintWidth = 80;

// A language's layout rule: how many operands of `form` stay on its head's
// line when it is broken over several lines, or -1 to keep its leading
// atoms (TIR's rule comes from its op table, ir::HeaderOperands).
using HeaderRule = int (*)(const Sexpr& form);

// One form. A list that fits in the remaining width is printed on one line;
// otherwise its head and its header operands (`header` says how many) stay
// on the first line and every other operand goes on a line of its own,
// indented two spaces.
std::string PrintSexpr(const Sexpr& form, int indent = 0,
                       HeaderRule header = nullptr);

// A whole module: the forms separated by blank lines, ending in a newline.
std::string PrintForms(const std::vector<Sexpr>& forms,
                       HeaderRule header = nullptr);

// The form on a single line, whatever its length.
std::string PrintFlat(const Sexpr& form);

}  // namespace tessel

#endif  // TESSEL_LIBS_SEXPR_PRINTER_H_
