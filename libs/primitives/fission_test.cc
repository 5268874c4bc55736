#include "libs/primitives/fission.h"

#include <map>
#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// fission after (or before) the `n`-th statement of op `op` of the proc
// of `text`.
absl::StatusOr<std::string> FissionAt(
    const std::string& text, ir::Op op, int n, int64_t n_lifts, bool after,
    const std::map<std::string, int64_t>& defines = {{"N", 5}}) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor stmt(module, &Nth(proc, op, n));
        return Fission(module, after ? stmt.after() : stmt.before(), n_lifts)
            .status();
      },
      {defines});
}

absl::StatusOr<std::string> FissionAfter(
    const std::string& text, ir::Op op, int n, int64_t n_lifts = 1,
    const std::map<std::string, int64_t>& defines = {{"N", 5}}) {
  return FissionAt(text, op, n, n_lifts, true, defines);
}

TEST(FissionTest, SplitsALoop) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i)) (assign (C i) (A i))))\n",
      ir::Op::kAssign, 0);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N (assign (A i) (B i)))\n"
            "  (for i 0 N (assign (C i) (A i))))\n");
}

// Two `+=` into one location commute, so reductions split.
TEST(FissionTest, ReductionsSplit) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in A (f32 N N)) (in B (f32 N N))\n"
      "          (inout C (f32 N)))\n"
      "  (for i 0 N (for j 0 N (reduce (C i) (A i j)) (reduce (C i) (B i "
      "j)))))\n",
      ir::Op::kReduce, 0, 2);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in A (f32 N N)) (in B (f32 N N)) (inout C "
            "(f32 N)))\n"
            "  (for i 0 N (for j 0 N (reduce (C i) (A i j))))\n"
            "  (for i 0 N (for j 0 N (reduce (C i) (B i j)))))\n");
}

// The matmul of Exo's section 2: C's zeroing apart from the reduction.
TEST(FissionTest, LiftsThroughTwoLoops) {
  auto result = FissionAfter(
      "(proc @mm ((size N) (size M) (in A (f32 N M)) (in B (f32 M N))\n"
      "           (out C (f32 N N)))\n"
      "  (for i 0 N (for j 0 N (assign (C i j) 0.0)\n"
      "    (for k 0 M (reduce (C i j) (* (A i k) (B k j)))))))\n",
      ir::Op::kAssign, 0, 2, {{"N", 3}, {"M", 5}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @mm\n"
            "    ((size N) (size M) (in A (f32 N M)) (in B (f32 M N)) (out C "
            "(f32 N N)))\n"
            "  (for i 0 N (for j 0 N (assign (C i j) 0.0)))\n"
            "  (for i 0 N (for j 0 N (for k 0 M (reduce (C i j) (* (A i k) (B "
            "k j)))))))\n");
}

TEST(FissionTest, SplitsBeforeANest) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (C i) (B i)) (for j 0 N (assign (A i j) 1.0)\n"
      "     (assign (A j i) (B j)))))\n",
      ir::Op::kAssign, 0, 1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N (assign (C i) (B i)))\n"
            "  (for i 0 N (for j 0 N (assign (A i j) 1.0) (assign (A j i) (B "
            "j)))))\n");
}

TEST(FissionTest, AGapAtTheStartLiftsWithoutASplit) {
  auto result = FissionAt(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (C i) (B i)) (for j 0 N (assign (A i j) (B "
      "j)))))\n",
      ir::Op::kAssign, 1, 2, false);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N (assign (C i) (B i)))\n"
            "  (for i 0 N (for j 0 N (assign (A i j) (B j)))))\n");
}

TEST(FissionTest, RejectsWritesWhoseOrderFlips) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (C i) (B i)) (for j 0 N (assign (A i j) 1.0)\n"
      "     (assign (A j i) (B j)))))\n",
      ir::Op::kAssign, 1, 2);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: statements before the gap do not commute with those "
            "after it in earlier iterations: N = 2: instances (i = 1, j = 0) "
            "and (i = 0, j = 1) both access A[1, 0]: both write");
}

TEST(FissionTest, RejectsAReadOfWhatALaterIterationWrites) {
  auto result = FissionAfter(
      "(proc @p ((size N) (inout A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 (- N 1) (assign (A i) 1.0) (assign (C i) (A (+ i 1)))))\n",
      ir::Op::kAssign, 0);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: statements before the gap do not commute with those "
            "after it in earlier iterations: N = 3: instances (i = 1) and (i = "
            "0) both access A[1]: the first writes, the second reads");
}

TEST(FissionTest, RejectsAReductionMetByARead) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in B (f32 N)) (inout s f32) (out C (f32 N)))\n"
      "  (for i 0 N (reduce s (B i)) (assign (C i) s)))\n",
      ir::Op::kReduce, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: statements before the gap do not commute with those "
            "after it in earlier iterations: N = 2: instances (i = 1) and (i = "
            "0) both access s: the first reduces, the second reads");
}

TEST(FissionTest, RejectsSplittingAnAllocFromItsUses) {
  auto result = FissionAfter(
      "(proc @p ((size N) (in B (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (alloc t f32) (assign t (B i)) (assign (C i) t)))\n",
      ir::Op::kAssign, 0);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: 't' would be used outside the scope of its declaration");
}

TEST(FissionTest, RejectsAGapOutsideLoops) {
  auto result = FissionAfter(
      "(proc @p ((size N) (out C (f32 N)))\n"
      "  (for i 0 N (assign (C i) 0.0)) (assign (C 0) 1.0))\n",
      ir::Op::kAssign, 0, 2);
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: lift 2 of 2 is not out of a loop (fission lifts through "
            "loops only)");
}

}  // namespace
}  // namespace tessel::primitives
