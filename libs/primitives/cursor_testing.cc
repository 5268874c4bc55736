#include "libs/primitives/cursor_testing.h"

#include "gtest/gtest.h"
#include "libs/ir/edit.h"

namespace tessel::primitives::testing {

ir::Cursor StmtAt(ir::Module& module, ir::Node& proc,
                  const std::vector<size_t>& path) {
  ir::Cursor at = ir::BlockCursor::BodyOf(module, proc)[path[0]];
  for (size_t i = 1; i < path.size(); ++i) at = at.body()[path[i]];
  return at;
}

ir::Cursor DeclNamed(ir::Module& module, ir::Node& proc,
                     const std::string& name) {
  ir::Node* found = nullptr;
  ir::Walk(proc, [&](ir::Node& node) {
    if (found == nullptr && node.name() == name &&
        (node.is(ir::Op::kAlloc) || node.is(ir::Op::kFor) ||
         node.is(ir::Op::kParam))) {
      found = &node;
    }
  });
  EXPECT_NE(found, nullptr) << "no declaration of " << name;
  return ir::Cursor(module, found);
}

}  // namespace tessel::primitives::testing
