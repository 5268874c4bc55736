// What can be checked of a TIR rule's types before any e-graph exists
// (formats/rules/README.md, "Errors": rules that do not type-check). A
// pattern's ?variables have no types until they match, so this checks what
// the forms alone fix: a lam only where a function is needed (the function
// of build, ifold or app), `index` of something that can be an array, `fst`
// and `snd` of something that can be a tuple, arithmetic on no tuple or
// condition, and two sides that can be equal (not a lam and a value, an
// array and a scalar literal...). The TIR binding runs it on
// every rule; what it cannot see, re-verifying saturate's output catches.
#ifndef TESSEL_LIBS_SATURATE_RULE_SORTS_H_
#define TESSEL_LIBS_SATURATE_RULE_SORTS_H_

#include "absl/status/status.h"
#include "libs/egraph/rules/binding.h"
#include "libs/ir/node.h"

namespace tessel::saturate {

// Checks the two sides of a rule (patterns read by ir::ReadPattern); an
// error names the rule and points at the offending part.
absl::Status CheckRuleSorts(const ir::Node& lhs, const ir::Node& rhs,
                            const egraph::rules::RuleScope& scope);

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_RULE_SORTS_H_
