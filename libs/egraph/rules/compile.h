// Compiling rule declarations (rule_file.h) into engine rewrites with a
// language binding (binding.h), and a library of rule sets read from files.
#ifndef TESSEL_LIBS_EGRAPH_RULES_COMPILE_H_
#define TESSEL_LIBS_EGRAPH_RULES_COMPILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "libs/egraph/rewrite.h"
#include "libs/egraph/rules/binding.h"
#include "libs/egraph/rules/rule_file.h"

namespace tessel::egraph::rules {

// One rule. Conditions before the first `let` become the rewrite's
// conditions (checked per match when it is applied, as egg does); the
// remaining clauses and the right side (or the named applier) form its
// applier.
absl::StatusOr<Rewrite> CompileRule(const RuleDecl& rule,
                                    const Binding& binding);

// The rule sets read from one or more files, by name.
class RuleLibrary {
 public:
  // Adds the rule sets of a file; a set name already known is an error.
  absl::Status AddFile(const std::string& path);
  absl::Status AddSource(const SourceRef& source);

  const RuleSetDecl* Find(absl::string_view name) const;
  const std::vector<RuleSetDecl>& sets() const { return sets_; }

  // The rules of the named sets, in order, compiled with `binding`. A set
  // that is not there, and a rule name that two of the sets define, are
  // errors.
  absl::StatusOr<std::vector<Rewrite>> Compile(
      absl::Span<const std::string> set_names, const Binding& binding) const;

 private:
  std::vector<RuleSetDecl> sets_;
};

}  // namespace tessel::egraph::rules

#endif  // TESSEL_LIBS_EGRAPH_RULES_COMPILE_H_
