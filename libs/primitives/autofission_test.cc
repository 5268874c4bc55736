#include "libs/primitives/autofission.h"

#include <string>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;

absl::StatusOr<std::string> AutofissionAfter(const std::string& text, ir::Op op,
                                             int n, int64_t n_lifts) {
  return testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor stmt(module, &Nth(proc, op, n));
        return Autofission(module, stmt.after(), n_lifts).status();
      },
      {{{"N", 5}}});
}

// It lifts through the loops there are and stops at the if.
TEST(AutofissionTest, StopsAtAnIf) {
  auto result = AutofissionAfter(
      "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)) (out C (f32 N "
      "N)))\n"
      "  (if (> N 0) (then (for i 0 N (for j 0 N (assign (A i j) (B i j))\n"
      "    (assign (C i j) (* 2.0 (B i j))))))))\n",
      ir::Op::kAssign, 0, 5);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(*result,
            "(proc @p ((size N) (in B (f32 N N)) (out A (f32 N N)) (out C (f32 "
            "N N)))\n"
            "  (if (> N 0)\n"
            "    (then\n"
            "      (for i 0 N (for j 0 N (assign (A i j) (B i j))))\n"
            "      (for i 0 N (for j 0 N (assign (C i j) (* 2.0 (B i "
            "j))))))))\n");
}

TEST(AutofissionTest, ChecksAsFissionDoes) {
  auto result = AutofissionAfter(
      "(proc @p ((size N) (inout A (f32 N)) (out C (f32 N)))\n"
      "  (for i 0 (- N 1) (assign (A i) 1.0) (assign (C i) (A (+ i 1)))))\n",
      ir::Op::kAssign, 0, 3);
  EXPECT_EQ(std::string(result.status().message()),
            "fission: statements before the gap do not commute with those "
            "after it in earlier iterations: N = 3: instances (i = 1) and (i = "
            "0) both access A[1]: the first writes, the second reads");
}

TEST(AutofissionTest, RejectsAGapInNoLoop) {
  auto result = AutofissionAfter(
      "(proc @p ((size N) (out C (f32 N)))\n"
      "  (assign (C 0) 1.0) (for i 0 N (assign (C i) 0.0)))\n",
      ir::Op::kAssign, 0, 1);
  EXPECT_EQ(std::string(result.status().message()),
            "autofission: the gap is in no loop");
}

}  // namespace
}  // namespace tessel::primitives
