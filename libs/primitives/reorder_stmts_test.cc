#include "libs/primitives/reorder_stmts.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/rewrite_testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// reorder_stmts on the `n`-th statement of op `op` and the next one.
absl::StatusOr<std::string> Reorder(const std::string& text, ir::Op op, int n) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor first(module, &Nth(proc, op, n));
        return ReorderStmts(module, ir::BlockCursor(first, first.next()))
            .status();
      },
      {{"N", 5}});
}

TEST(ReorderStmtsTest, SwapsIndependentStatements) {
  auto result = Reorder(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i)) (assign (C i) (B i))))\n",
      ir::Op::kAssign, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N (assign (C i) (B i)) (assign (A i) (B i))))\n");
}

// Two `+=` into one location commute.
TEST(ReorderStmtsTest, SwapsReductionsOfOneLocation) {
  auto result = Reorder(
      "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
      "  (for i 0 N (reduce s (B i)) (reduce s (* 2.0 (B i)))))\n",
      ir::Op::kReduce, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
            "  (for i 0 N (reduce s (* 2.0 (B i))) (reduce s (B i))))\n");
}

// Configuration writes to different fields commute (Exo's hoisting of
// config_ld_def starts so).
TEST(ReorderStmtsTest, SwapsAConfigWriteAndAnUnrelatedStatement) {
  auto result = Reorder(
      "(config @C (scale f32))\n"
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i)) (write-config @C scale 2.0)))\n",
      ir::Op::kAssign, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      *result,
      "(config @C (scale f32))\n"
      "\n"
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)))\n"
      "  (for i 0 N (write-config @C scale 2.0) (assign (A i) (B i))))\n");
}

TEST(ReorderStmtsTest, RejectsAWriteAndARead) {
  auto result = Reorder(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i)) (assign (C i) (A i))))\n",
      ir::Op::kAssign, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "reorder_stmts: the statements do not commute: N = 1: instances (i "
            "= 0) and (i = 0) both access A[0]: the first writes, the second "
            "reads");
}

TEST(ReorderStmtsTest, RejectsAReductionAndAWrite) {
  auto result = Reorder(
      "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
      "  (reduce s (B 0)) (assign s 1.0))\n",
      ir::Op::kReduce, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "reorder_stmts: the statements do not commute: the statements both "
            "access s: the first reduces, the second writes");
}

TEST(ReorderStmtsTest, RejectsAConfigWriteBeforeItsRead) {
  auto result = Reorder(
      "(config @C (scale f32))\n"
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (write-config @C scale 2.0) (assign (A 0) (read-config @C scale)))\n",
      ir::Op::kWriteConfig, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "reorder_stmts: the statements do not commute: the statements both "
            "access @C.scale: the first writes, the second reads");
}

TEST(ReorderStmtsTest, RejectsMovingAUseAboveItsAlloc) {
  auto result = Reorder(
      "(proc @p ((size N) (out A (f32 N)))\n"
      "  (alloc t f32) (assign t 1.0) (assign (A 0) t))\n",
      ir::Op::kAlloc, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "reorder_stmts: 't' would be used outside the scope of its "
            "declaration");
}

}  // namespace
}  // namespace tessel::primitives
