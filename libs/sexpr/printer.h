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

// One form. A list that fits in the remaining width is printed on one line;
// otherwise its head and its "header" operands (by form: a loop's variable
// and bounds, a procedure's name and parameters, ...) stay on the first line
// and every other operand goes on a line of its own, indented two spaces.
std::string PrintSexpr(const Sexpr& form, int indent = 0);

// A whole module: the forms separated by blank lines, ending in a newline.
std::string PrintForms(const std::vector<Sexpr>& forms);

// The form on a single line, whatever its length.
std::string PrintFlat(const Sexpr& form);

}  // namespace tessel

#endif  // TESSEL_LIBS_SEXPR_PRINTER_H_
