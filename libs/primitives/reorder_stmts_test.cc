#include "libs/primitives/reorder_stmts.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

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
      {{{"N", 5}}});
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

// A call's effects are its callee's: two calls reducing into one
// accumulator commute.
TEST(ReorderStmtsTest, SwapsCallsThatReduceIntoOneAccumulator) {
  auto result = Reorder(
      "(proc @acc ((size n) (in x (window f32 n)) (inout y (window f32 n)))\n"
      "  (for k 0 n (reduce (y k) (x k))))\n"
      "(proc @p ((size N) (in A (f32 N 8)) (inout C (f32 8)))\n"
      "  (for i 0 N (call @acc 8 (window A i (: 0 8)) (window C (: 0 8)))\n"
      "             (call @acc 4 (window A i (: 4 8)) (window C (: 0 4)))))\n",
      ir::Op::kCall, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @acc ((size n) (in x (window f32 n)) (inout y (window f32 "
            "n)))\n"
            "  (for k 0 n (reduce (y k) (x k))))\n"
            "\n"
            "(proc @p ((size N) (in A (f32 N 8)) (inout C (f32 8)))\n"
            "  (for i 0 N\n"
            "    (call @acc 4 (window A i (: 4 8)) (window C (: 0 4)))\n"
            "    (call @acc 8 (window A i (: 0 8)) (window C (: 0 8)))))\n");
}

TEST(ReorderStmtsTest, RejectsCallsWhoseBodiesClash) {
  auto result = Reorder(
      "(proc @set ((size n) (out y (window f32 n)))\n"
      "  (for k 0 n (assign (y k) 1.0)))\n"
      "(proc @acc ((size n) (in x (window f32 n)) (inout y (window f32 n)))\n"
      "  (for k 0 n (reduce (y k) (x k))))\n"
      "(proc @p ((size N) (in A (f32 N 8)) (inout C (f32 8)))\n"
      "  (for i 0 N (call @set 2 (window C (: 6 8)))\n"
      "             (call @acc 8 (window A i (: 0 8)) (window C (: 0 8)))))\n",
      ir::Op::kCall, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "reorder_stmts: the statements do not commute: N = 1: instances (i "
            "= 0) and (i = 0) both access C[6]: the first writes, the second "
            "reduces");
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
