// For the tests of H15's primitives: a rewrite applied to a proc read
// from text, and everything the common brief asks checked at once.
#ifndef TESSEL_LIBS_PRIMITIVES_REWRITE_TESTING_H_
#define TESSEL_LIBS_PRIMITIVES_REWRITE_TESTING_H_

#include <cstdint>
#include <map>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "libs/ir/node.h"

namespace tessel::primitives::testing {

// Reads `text` (its last form is the proc rewritten) and runs `rewrite` on
// it. Accepted: the proc verifies (ir::VerifyProc), computes what the
// original computes (SameValues with `defines`), and the module's printed
// text is returned. Rejected: the module is unchanged and the error is
// returned. Test failures otherwise.
absl::StatusOr<std::string> Rewrite(
    const std::string& text,
    absl::FunctionRef<absl::Status(ir::Module&, ir::Node& proc)> rewrite,
    const std::map<std::string, int64_t>& defines = {});

// The `n`-th (from 0) node of op `op` under `root`, in program order.
ir::Node& Nth(ir::Node& root, ir::Op op, int n = 0);

}  // namespace tessel::primitives::testing

#endif  // TESSEL_LIBS_PRIMITIVES_REWRITE_TESTING_H_
