#include "libs/primitives/add_loop.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/ir/build.h"
#include "libs/ir/views.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// add_loop around the `n`-th statement of op `op`, up to `hi` (a literal,
// or when negative the proc's parameter -hi - 1: -1 the first).
absl::StatusOr<std::string> Add(const std::string& text, ir::Op op, int n,
                                const std::string& name, int64_t hi,
                                bool guard) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor stmt(module, &Nth(proc, op, n));
        ir::Node* bound =
            hi >= 0
                ? ir::Build::Int(module, hi)
                : ir::Build::Ref(module, *ir::ProcView(proc).params()[-hi - 1]);
        return AddLoop(module, stmt.as_block(), name, *bound, guard).status();
      },
      {{{"N", 5}}});
}

constexpr char kCopy[] =
    "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
    "  (for i 0 N (assign (A i) (B i))))\n";

TEST(AddLoopTest, WrapsAnIdempotentBlock) {
  auto result = Add(kCopy, ir::Op::kFor, 0, "k", 4, false);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
            "  (for k 0 4 (for i 0 N (assign (A i) (B i)))))\n");
}

TEST(AddLoopTest, GuardsAReduction) {
  auto result =
      Add("(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
          "  (for i 0 N (reduce s (B i))))\n",
          ir::Op::kReduce, 0, "k", -1, true);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      *result,
      "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
      "  (for i 0 N (for k 0 N (if (== k 0) (then (reduce s (B i)))))))\n");
}

TEST(AddLoopTest, RejectsAReductionUnguarded) {
  auto result =
      Add("(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
          "  (for i 0 N (reduce s (B i))))\n",
          ir::Op::kReduce, 0, "k", 2, false);
  EXPECT_EQ(std::string(result.status().message()),
            "add_loop: the block is not idempotent (add guard=True): N = 1: "
            "instances (i = 0) and (i = 0) both access s: both reduce");
}

TEST(AddLoopTest, RejectsALoopThatMayNotRun) {
  auto result = Add(kCopy, ir::Op::kFor, 0, "k", 0, false);
  EXPECT_EQ(std::string(result.status().message()),
            "add_loop: the loop over 'k' may run no iteration");
}

TEST(AddLoopTest, RejectsHidingADeclarationFromItsUses) {
  auto result =
      Add("(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
          "  (alloc t f32) (assign t (B 0)) (for i 0 N (assign (A i) t)))\n",
          ir::Op::kAlloc, 0, "k", 2, false);
  EXPECT_EQ(std::string(result.status().message()),
            "add_loop: 't' would be used outside the scope of its declaration");
}

TEST(AddLoopTest, RejectsASymbolicBoundThatMayBeZero) {
  auto result =
      Add("(proc @p ((size N) (index M) (in B (f32 N)) (out A (f32 N)))\n"
          "  (for i 0 N (assign (A i) (B i))))\n",
          ir::Op::kFor, 0, "k", -2, false);
  EXPECT_EQ(std::string(result.status().message()),
            "add_loop: the loop over 'k' may run no iteration (at M = 0)");
}

TEST(AddLoopTest, RejectsANameTaken) {
  auto result = Add(kCopy, ir::Op::kFor, 0, "i", 2, false);
  EXPECT_EQ(std::string(result.status().message()),
            "add_loop: the name 'i' is taken");
}

}  // namespace
}  // namespace tessel::primitives
