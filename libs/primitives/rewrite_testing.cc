#include "libs/primitives/rewrite_testing.h"

#include <cstdlib>

#include "gtest/gtest.h"
#include "libs/ir/edit.h"
#include "libs/ir/verify/verifier.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives::testing {

absl::StatusOr<std::string> Rewrite(
    const std::string& text,
    absl::FunctionRef<absl::Status(ir::Module&, ir::Node& proc)> rewrite,
    const std::map<std::string, int64_t>& defines) {
  ir::Module module = ReadVerified(text);
  if (module.forms().empty()) return absl::InternalError("did not read");
  ir::Node& proc = *module.forms().back();
  std::string before = Print(module);
  if (absl::Status status = rewrite(module, proc); !status.ok()) {
    EXPECT_EQ(Print(module), before) << "a rejection changed the module";
    return status;
  }
  if (absl::Status status = ir::VerifyProc(module, proc); !status.ok()) {
    ADD_FAILURE() << "the result does not verify: " << status << "\n"
                  << Print(module);
    return status;
  }
  absl::Status same = SameValues(text, module, defines);
  EXPECT_TRUE(same.ok()) << same << "\n" << Print(module);
  return Print(module);
}

ir::Node& Nth(ir::Node& root, ir::Op op, int n) {
  ir::Node* found = nullptr;
  ir::Walk(root, [&](ir::Node& node) {
    if (found == nullptr && node.is(op) && n-- == 0) found = &node;
  });
  if (found == nullptr) {
    ADD_FAILURE() << "no such node";
    std::abort();
  }
  return *found;
}

}  // namespace tessel::primitives::testing
