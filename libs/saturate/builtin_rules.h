// The rule sets and cost models compiled into saturate: the target-
// independent ones of the tensor level (formats/tir/rules/) and every
// target's (targets/NAME/idioms.rules and cost.costs), embedded by
// //libs/saturate:builtin_rules.
#ifndef TESSEL_LIBS_SATURATE_BUILTIN_RULES_H_
#define TESSEL_LIBS_SATURATE_BUILTIN_RULES_H_

#include <span>

#include "libs/support/embedded_file.h"

namespace tessel::saturate {

std::span<const EmbeddedFile> BuiltinRuleFiles();

}  // namespace tessel::saturate

#endif  // TESSEL_LIBS_SATURATE_BUILTIN_RULES_H_
