#include "libs/primitives/fuse.h"

#include <map>
#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

// fuse on the `n`-th loop of the proc of `text` and the next statement.
absl::StatusOr<std::string> FuseAt(
    const std::string& text, int n = 0,
    const std::map<std::string, int64_t>& defines = {{"N", 5}}) {
  return testing::Rewrite(text,
                          [&](ir::Module& module, ir::Node& proc) {
                            ir::Cursor first(module,
                                             &Nth(proc, ir::Op::kFor, n));
                            return Fuse(module, first, first.next()).status();
                          },
                          {defines});
}

TEST(FuseTest, FusesAProducerAndItsConsumer) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i))) (for j 0 N (assign (C j) (A j))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N (assign (A i) (B i)) (assign (C i) (A i))))\n");
}

TEST(FuseTest, FusesReductionsOfOneLocation) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
      "  (for i 0 N (reduce s (B i))) (for j 0 N (reduce s (* 2.0 (B j)))))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (inout s f32))\n"
            "  (for i 0 N (reduce s (B i)) (reduce s (* 2.0 (B i)))))\n");
}

TEST(FuseTest, ProvesSymbolicBoundsEqual) {
  auto result = FuseAt(
      "(proc @p ((size N) (size M) (in B (f32 (+ N M))) (out A (f32 (+ N M)))\n"
      "          (out C (f32 (+ N M))))\n"
      "  (for i 0 (+ N M) (assign (A i) (B i)))\n"
      "  (for j 0 (+ M N) (assign (C j) (A j))))\n",
      0, {{"N", 3}, {"M", 4}});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N)\n"
            "          (size M)\n"
            "          (in B (f32 (+ N M)))\n"
            "          (out A (f32 (+ N M)))\n"
            "          (out C (f32 (+ N M))))\n"
            "  (for i 0 (+ N M) (assign (A i) (B i)) (assign (C i) (A i))))\n");
}

// Exo compares one bound only; both must be equal.
TEST(FuseTest, RejectsDifferentLowerBounds) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)) (inout C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i))) (for j 1 N (assign (C j) (B j))))\n");
  EXPECT_EQ(
      std::string(result.status().message()),
      "fuse: the loops' bounds differ at N = 1: i in [0, 1), j in [1, 1)");
}

TEST(FuseTest, RejectsDifferentUpperBounds) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)) (inout C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i))) (for j 0 (- N 1) (assign (C j) "
      "(B j))))\n");
  EXPECT_EQ(
      std::string(result.status().message()),
      "fuse: the loops' bounds differ at N = 1: i in [0, 1), j in [0, 0)");
}

TEST(FuseTest, FusesBodiesWithTemporaries) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (alloc t f32) (assign t (B i)) (assign (A i) t))\n"
      "  (for j 0 N (alloc u f32) (assign u (A j)) (assign (C j) u)))\n");
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 "
            "N)))\n"
            "  (for i 0 N\n"
            "    (alloc t f32)\n"
            "    (assign t (B i))\n"
            "    (assign (A i) t)\n"
            "    (alloc u f32)\n"
            "    (assign u (A i))\n"
            "    (assign (C i) u)))\n");
}

TEST(FuseTest, RejectsTwoDeclarationsOfOneName) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (out A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (alloc t f32) (assign t (B i)) (assign (A i) t))\n"
      "  (for j 0 N (alloc t f32) (assign t (A j)) (assign (C j) t)))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "fuse: both bodies declare 't'");
}

TEST(FuseTest, RejectsAReadOfALaterWrite) {
  auto result = FuseAt(
      "(proc @p ((size N) (in B (f32 N)) (inout A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 N (assign (A i) (B i)))\n"
      "  (for j 0 N (assign (C j) (A (- (- N 1) j)))))\n");
  EXPECT_EQ(std::string(result.status().message()),
            "fuse: the first body does not commute with the second's earlier "
            "iterations: N = 2: instances (i = 1) and (j = 0) both access "
            "A[1]: the first writes, the second reads");
}

}  // namespace
}  // namespace tessel::primitives
