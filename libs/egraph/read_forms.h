// Terms and patterns from S-expressions, for any language: the language
// says how one form reads (its op, payload and which sub-forms are its
// children); these functions do the rest (recursion, ?variables, errors at
// the form's location). SymbolicLanguage and rule-file readers use them.
#ifndef TESSEL_LIBS_EGRAPH_READ_FORMS_H_
#define TESSEL_LIBS_EGRAPH_READ_FORMS_H_

#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/symbols.h"
#include "libs/egraph/term.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::egraph {

// One form read as an e-node: its op, its payload and its children, which
// are sub-forms of it (or any forms that outlive the call).
struct FormReading {
  OpId op = 0;
  PayloadId payload = PayloadTable::kNone;
  std::vector<const Sexpr*> children;
};
// Reads one form or returns an error (located with ErrorAt).
using FormReader =
    absl::FunctionRef<absl::StatusOr<FormReading>(const Sexpr& form)>;

// A term: every form goes through `read`.
absl::StatusOr<Term> ReadTerm(const Sexpr& form, FormReader read);

// A pattern: symbols starting with '?' are variables (interned in `vars`),
// every other form goes through `read`.
absl::StatusOr<Pattern> ReadPattern(const Sexpr& form, VarTable* vars,
                                    FormReader read);

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_READ_FORMS_H_
