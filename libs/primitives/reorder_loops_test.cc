#include "libs/primitives/reorder_loops.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// reorder_loops on the `n`-th loop of the proc of `text`.
absl::StatusOr<std::string> Reorder(const std::string& text, int n = 0,
                                    std::map<std::string, int64_t> defines = {
                                        {"N", 5}}) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        return ReorderLoops(module,
                            ir::Cursor(module, &Nth(proc, ir::Op::kFor, n)))
            .status();
      },
      {defines});
}

TEST(ReorderLoopsTest, SwapsAMatmulsReductionLoops) {
  auto result = Reorder(
      "(proc @mm ((size N) (in A (f32 N N)) (in B (f32 N N))\n"
      "           (inout C (f32 N N)))\n"
      "  (for i 0 N (for j 0 N (for k 0 N\n"
      "    (reduce (C i j) (* (A i k) (B k j)))))))\n",
      1);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      *result,
      "(proc @mm ((size N) (in A (f32 N N)) (in B (f32 N N)) (inout C (f32 N "
      "N)))\n"
      "  (for i 0 N (for k 0 N (for j 0 N (reduce (C i j) (* (A i k) (B k "
      "j)))))))\n");
}

// The paper's (section 5.8) case: only iterations whose order flips need
// to commute, so a Gauss-Seidel 4-point stencil updated in place reorders.
TEST(ReorderLoopsTest, GaussSeidelFourPointStencilReorders) {
  auto result = Reorder(
      "(proc @gs ((size N) (inout A (f32 N N)))\n"
      "  (for i 1 (- N 1) (for j 1 (- N 1)\n"
      "    (assign (A i j) (+ (+ (A (- i 1) j) (A i (- j 1)))\n"
      "                       (+ (A (+ i 1) j) (A i (+ j 1))))))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      *result,
      "(proc @gs ((size N) (inout A (f32 N N)))\n"
      "  (for j 1 (- N 1)\n"
      "    (for i 1 (- N 1)\n"
      "      (assign (A i j)\n"
      "        (+ (+ (A (- i 1) j) (A i (- j 1))) (+ (A (+ i 1) j) (A i (+ j "
      "1))))))))\n");
}

TEST(ReorderLoopsTest, DiagonalStencilDoesNotReorder) {
  auto result = Reorder(
      "(proc @diag ((size N) (inout A (f32 N N)))\n"
      "  (for i 1 (- N 1) (for j 1 (- N 1)\n"
      "    (assign (A i j) (+ (A (- i 1) (+ j 1)) (A (+ i 1) (- j 1)))))))\n");
  EXPECT_EQ(result.status().message(),
            "reorder_loops: iterations of 'i' and 'j' whose order the "
            "reordering flips do not commute: N = 4: instances (i = 1, j = 2) "
            "and (i = 2, j = 1) both access A[1, 2]: the first writes, the "
            "second reads");
}

// A temporary declared in the body is each iteration's own.
TEST(ReorderLoopsTest, BodiesWithTemporariesReorder) {
  auto result = Reorder(
      "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)))\n"
      "  (for i 0 N (for j 0 N (alloc t f32) (assign t (B i j))\n"
      "    (assign (A j i) (* t t)))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)))\n"
            "  (for j 0 N\n"
            "    (for i 0 N (alloc t f32) (assign t (B i j)) (assign (A j i) "
            "(* t t)))))\n");
}

TEST(ReorderLoopsTest, SymbolicSizesAndOddBounds) {
  auto result = Reorder(
      "(proc @t ((size N) (size M) (in A (f32 N M)) (inout B (f32 M N)))\n"
      "  (for i 0 N (for j 1 M (assign (B j i) (A i j)))))\n",
      0, {{"N", 3}, {"M", 7}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(
      *result,
      "(proc @t ((size N) (size M) (in A (f32 N M)) (inout B (f32 M N)))\n"
      "  (for j 1 M (for i 0 N (assign (B j i) (A i j)))))\n");
}

TEST(ReorderLoopsTest, RejectsWhatIsNotAPerfectNest) {
  auto result = Reorder(
      "(proc @p ((size N) (out A (f32 N N)))\n"
      "  (for i 0 N (assign (A i 0) 0.0) (for j 0 N (assign (A i j) 1.0))))\n");
  EXPECT_EQ(result.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(result.status().message(),
            "reorder_loops: the body of loop 'i' must be exactly one loop "
            "(perfectly nested loops)");
}

TEST(ReorderLoopsTest, RejectsInnerBoundsOnTheOuterVariable) {
  auto result = Reorder(
      "(proc @p ((size N) (out A (f32 N N)))\n"
      "  (for i 0 N (for j 0 i (assign (A i j) 1.0))))\n");
  EXPECT_EQ(result.status().message(),
            "reorder_loops: the bounds of loop 'j' depend on the outer loop "
            "variable 'i'");
}

TEST(ReorderLoopsTest, RejectsBoundsTheBodyReconfigures) {
  auto result = Reorder(
      "(config @C (n size))\n"
      "(proc @p ((size N) (out A (f32 N N)))\n"
      "  (for i 0 N (for j 0 (read-config @C n)\n"
      "    (write-config @C n 2) (assign (A i 0) 1.0))))\n");
  EXPECT_EQ(result.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(result.status().message(),
            "reorder_loops: the bounds of loop 'j' do not commute with its "
            "body: N = 1, (read-config @C n) = 1: instances (i = 0) and (i = "
            "0, j = 0) both access @C.n: the first reads, the second writes");
}

}  // namespace
}  // namespace tessel::primitives
