// The rule file syntax (formats/rules/README.md), read into declarations
// that still hold S-expressions: which ops, predicates and appliers exist is
// the business of a language binding (binding.h), which compiles the
// declarations into engine rewrites (compile.h). This layer checks what
// every language shares: the shape of each form, unique names, and that
// every variable a condition, a `let` or a right side uses is bound before.
#ifndef TESSEL_LIBS_EGRAPH_RULES_RULE_FILE_H_
#define TESSEL_LIBS_EGRAPH_RULES_RULE_FILE_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "libs/sexpr/sexpr.h"
#include "libs/support/source.h"

namespace tessel::egraph::rules {

// A named call: a condition `(NAME ARG...)`, the function of a `let`, or an
// applier `(apply NAME ARG...)`. The arguments are patterns (or whatever the
// named thing accepts), read by the binding.
struct Call {
  std::string name;
  std::vector<Sexpr> args;
  Location loc;  // of the name
};

// One clause after the right side, run in the order written for each match:
// a condition (each condition of an `(if C...)` is a clause of its own) or a
// `(let ?v (FN ARG...))` that binds ?v to each class FN yields.
struct Clause {
  enum class Kind { kIf, kLet };
  Kind kind = Kind::kIf;
  std::string var;  // kLet: the variable bound, "?v"
  Location var_loc;
  Call call;
};

// One rewrite. A `birule` is read as two rules, NAME (left to right) and
// NAME-rev (right to left).
struct RuleDecl {
  std::string name;
  Location loc;  // of the name
  Sexpr lhs;
  Sexpr rhs;                  // the right-side pattern, unless `apply` is set
  std::optional<Call> apply;  // a custom applier replacing the right side
  std::vector<Clause> clauses;
};

struct RuleSetDecl {
  std::string name;
  Location loc;
  std::vector<RuleDecl> rules;
};

// "file:line:col" of a location, for messages that point at a second place.
std::string LocationText(const Location& loc);

// Whether `name` spells a pattern variable: `?` followed by at least one
// character.
bool IsVariable(absl::string_view name);

// Reads the rule sets of a rule file. Errors carry `file:line:col`.
absl::StatusOr<std::vector<RuleSetDecl>> ParseRuleFile(const SourceRef& source);
// The same for the file at `path`.
absl::StatusOr<std::vector<RuleSetDecl>> ReadRuleFile(const std::string& path);

}  // namespace tessel::egraph::rules

#endif  // TESSEL_LIBS_EGRAPH_RULES_RULE_FILE_H_
