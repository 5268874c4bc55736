#include "libs/primitives/buffer_uses.h"

#include <string>

#include "absl/status/status.h"
#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/node.h"
#include "libs/ir/op.h"
#include "libs/ir/views.h"
#include "libs/primitives/testing.h"
#include "libs/primitives/transaction.h"

namespace tessel::primitives {
namespace {

constexpr char kCallee[] =
    "(proc @g ((size n) (in a (window f32 n)) (out b f32))\n"
    "  (assign b (a 0)))\n";

// A let's accesses are its elements and windows; each is rewritten.
TEST(RewriteAccesses, RewritesTheElementsOfALet) {
  ir::Module module = testing::ReadVerified(
      "(proc @f ((in x (f32 8 8)) (out y (f32 4)))\n"
      "  (let w (window x (: 2 6) 3))\n"
      "  (for i 0 4 (assign (y i) (w i))))\n");
  ir::Node& proc = testing::ProcNamed(module, "@f");
  ir::Node& let = testing::Nth(proc, ir::Op::kLet);
  Transaction tx(module);
  int rewritten = 0;
  absl::Status status =
      RewriteAccesses(tx, let, [&](const BufferAccess& access) {
        EXPECT_TRUE(access.node->is(ir::Op::kLoad));
        EXPECT_FALSE(access.is_scalar);
        ++rewritten;
        return absl::StatusOr<ir::Node*>(module.Clone(access.node));
      });
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(rewritten, 1);
}

// A let passed whole to a call is no scalar (it declares no type): the
// rewrite refuses it as a value, and what it edited before is undone.
TEST(RewriteAccesses, RefusesALetUsedWhole) {
  const std::string text = std::string(kCallee) +
                           "(proc @f ((in x (f32 8 8)) (out y (f32 4)) "
                           "(out z f32))\n"
                           "  (let w (window x (: 2 6) 3))\n"
                           "  (for i 0 4 (assign (y i) (w i)))\n"
                           "  (call @g 4 w z))\n";
  ir::Module module = testing::ReadVerified(text);
  ir::Node& proc = testing::ProcNamed(module, "@f");
  ir::Node& let = testing::Nth(proc, ir::Op::kLet);
  absl::Status status;
  {
    Transaction tx(module);
    status = RewriteAccesses(tx, let, [&](const BufferAccess&) {
      return absl::StatusOr<ir::Node*>(ir::Build::Int(module, 0));
    });
  }
  EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(status.message(),
            "'w' is used whole in '(call @g 4 w z)'; only its elements and "
            "windows can be rewritten");
  EXPECT_EQ(testing::Print(module), testing::Print(testing::ReadVerified(text)));
}


// A window with a step, a split or a permutation is no box of what it
// views: composing it by adding offsets would be wrong, so it is refused.
TEST(RewriteAccesses, RefusesAWindowThatIsNotABox) {
  for (const char* let : {"(let w (window x (: 0 8 2) 3)) (assign z (w 1))",
                          "(let w (window x (: 0 4) (: 0 4) (perm 1 0))) "
                          "(assign z (w 1 2))",
                          "(let w (window x (split 0 8 4) 3)) "
                          "(assign z (w 1 2))"}) {
    ir::Module module = testing::ReadVerified(
        std::string("(proc @f ((in x (f32 8 8)) (out z f32))\n  ") + let +
        ")\n");
    ir::Node& proc = testing::ProcNamed(module, "@f");
    const ir::Node& x = *ir::ProcView(proc).params()[0];
    Transaction tx(module);
    absl::Status status =
        RewriteAccesses(tx, x, [&](const BufferAccess& access) {
          return absl::StatusOr<ir::Node*>(module.Clone(access.node));
        });
    EXPECT_EQ(status.code(), absl::StatusCode::kFailedPrecondition) << let;
    EXPECT_NE(status.message().find("a window with a step, a split or a "
                                    "permutation"),
              std::string::npos)
        << status;
  }
}

}  // namespace
}  // namespace tessel::primitives
