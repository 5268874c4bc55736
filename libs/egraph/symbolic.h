// A generic symbolic language over S-expressions, for tests, benchmarks and
// rule files of small languages (egg's math and lambda): a list
// (HEAD ARG...) is an e-node with op HEAD and the arguments as children; a
// number is a leaf with op "$num" and the number as payload; a symbol is a
// leaf with op "$sym" and its name as payload; in patterns, a symbol ?x is a
// variable.
#ifndef TESSEL_LIBS_EGRAPH_SYMBOLIC_H_
#define TESSEL_LIBS_EGRAPH_SYMBOLIC_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/egraph/ids.h"
#include "libs/egraph/pattern.h"
#include "libs/egraph/read_forms.h"
#include "libs/egraph/symbols.h"
#include "libs/egraph/term.h"
#include "libs/sexpr/sexpr.h"

namespace tessel::egraph {

class SymbolicLanguage {
 public:
  enum class Numbers {
    kAsWritten,  // 2 is an int payload, 2.0 a float payload
    kFloat,      // every number is a float payload (egg's math: NotNan<f64>)
  };

  // The tables outlive the language.
  SymbolicLanguage(OpTable* ops, PayloadTable* payloads,
                   Numbers numbers = Numbers::kAsWritten);

  OpTable& ops() const { return *ops_; }
  PayloadTable& payloads() const { return *payloads_; }
  OpId symbol_op() const { return symbol_op_; }
  OpId number_op() const { return number_op_; }

  // Leaves.
  PayloadId Number(const Sexpr& atom) const;  // an int or float atom

  // Terms and patterns from S-expressions; errors (strings, empty lists,
  // lists not headed by a symbol, ?variables in terms) carry locations.
  absl::StatusOr<Term> TermFromSexpr(const Sexpr& form) const;
  absl::StatusOr<Pattern> PatternFromSexpr(const Sexpr& form,
                                           VarTable* vars) const;
  // The same from text holding one form.
  absl::StatusOr<Term> ParseTerm(absl::string_view text) const;
  absl::StatusOr<Pattern> ParsePattern(absl::string_view text,
                                       VarTable* vars) const;

  // How this language reads one form (see read_forms.h).
  absl::StatusOr<FormReading> ReadForm(const Sexpr& form) const;

  // Back to S-expressions (leaves print as their payload).
  Sexpr ToSexpr(const Term& term) const;
  std::string Print(const Term& term) const;  // on one line

 private:
  Sexpr NodeToSexpr(const Term& term, uint32_t i) const;

  OpTable* ops_;
  PayloadTable* payloads_;
  Numbers numbers_;
  OpId symbol_op_;
  OpId number_op_;
};

}  // namespace tessel::egraph

#endif  // TESSEL_LIBS_EGRAPH_SYMBOLIC_H_
