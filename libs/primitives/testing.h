// For the primitives' tests: a procedure read from text, a rewrite
// applied, and the result checked three ways: it verifies, it prints as
// expected, and it computes what the original computes (run-sim's
// comparison on seeded inputs).
#ifndef TESSEL_LIBS_PRIMITIVES_TESTING_H_
#define TESSEL_LIBS_PRIMITIVES_TESTING_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/status/status.h"
#include "libs/ir/node.h"

namespace tessel::primitives::testing {

// A verified module read from `text` as m.tir; the test fails (and the
// module is empty) when it does not read.
ir::Module ReadVerified(const std::string& text);

// The proc or instr `@name` of `module` (the test fails when there is
// none).
ir::Node& ProcNamed(ir::Module& module, const std::string& name);

// `module`'s canonical text.
std::string Print(const ir::Module& module);

// Runs the entry of `before` (a module's text) and of `after` on the same
// seeded inputs, for seeds 1 to 3, with `defines` for size parameters,
// and returns run-sim's error when an output differs (or either fails).
absl::Status SameValues(const std::string& before, const ir::Module& after,
                        const std::map<std::string, int64_t>& defines = {});

}  // namespace tessel::primitives::testing

#endif  // TESSEL_LIBS_PRIMITIVES_TESTING_H_
