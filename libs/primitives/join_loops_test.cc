#include "libs/primitives/join_loops.h"

#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;
using testing::Outcome;
using testing::Sizes;

// join_loops on the `n`-th loop of the last proc of `text` and the next
// statement; the outcome (testing::Outcome).
std::string JoinAt(const std::string& text, int n = 0,
                   const std::vector<Sizes>& runs = {{{"n", 5}}}) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        ir::Cursor first(module, &Nth(proc, ir::Op::kFor, n));
        return JoinLoops(module, first, first.next()).status();
      },
      runs));
}

// Exo's test_join_loops_body_match: every kind of statement in the body.
TEST(JoinLoopsTest, JoinsIdenticalBodies) {
  EXPECT_EQ(JoinAt("(proc @take ((in w (window f32 2 1))))\n"
                   "(proc @p ((size n) (inout x (f32 (+ n 1))))\n"
                   "  (for i 0 n\n"
                   "    (assign (x i) 0.0)\n"
                   "    (reduce (x i) (neg (+ 1.0 (x i))))\n"
                   "    (for j 0 1 (if (== i j) (then (assign (x i) 2.0))))\n"
                   "    (alloc a (f32 4 2))\n"
                   "    (let y (window a (: 1 3) (: 1 2)))\n"
                   "    (call @take y))\n"
                   "  (for i n (+ n 1)\n"
                   "    (assign (x i) 0.0)\n"
                   "    (reduce (x i) (neg (+ 1.0 (x i))))\n"
                   "    (for j 0 1 (if (== i j) (then (assign (x i) 2.0))))\n"
                   "    (alloc a (f32 4 2))\n"
                   "    (let y (window a (: 1 3) (: 1 2)))\n"
                   "    (call @take y)))\n",
                   0, {{{"n", 5}}, {{"n", 1}}}),
            "(proc @take ((in w (window f32 2 1))))\n"
            "\n"
            "(proc @p ((size n) (inout x (f32 (+ n 1))))\n"
            "  (for i 0 (+ n 1)\n"
            "    (assign (x i) 0.0)\n"
            "    (reduce (x i) (neg (+ 1.0 (x i))))\n"
            "    (for j 0 1 (if (== i j) (then (assign (x i) 2.0))))\n"
            "    (alloc a (f32 4 2))\n"
            "    (let y (window a (: 1 3) (: 1 2)))\n"
            "    (call @take y)))\n");
}

// Exo's test_join_loops_equiv_but_diff_bounds: the bounds are equal under
// the assertion, and the variables' names need not be.
TEST(JoinLoopsTest, ProvesTheBoundsAdjacentUnderAssertions) {
  EXPECT_EQ(JoinAt("(proc @p ((size n) (out x (f32 4)))\n"
                   "  (assert (== (% n 4) 2))\n"
                   "  (for i 0 2 (assign (x i) 0.0))\n"
                   "  (for k (% n 4) 4 (assign (x k) 0.0)))\n",
                   0, {{{"n", 6}}, {{"n", 2}}}),
            "(proc @p ((size n) (out x (f32 4)))\n"
            "  (assert (== (% n 4) 2))\n"
            "  (for i 0 4 (assign (x i) 0.0)))\n");
}

TEST(JoinLoopsTest, JoinsEmptyTails) {
  // The second loop is empty when n is 0 mod 4; both run forwards.
  EXPECT_EQ(JoinAt("(proc @p ((size n) (in a (f32 n)) (out x (f32 n)))\n"
                   "  (for i 0 (- n (% n 4)) (assign (x i) (* 2.0 (a i))))\n"
                   "  (for i (- n (% n 4)) n (assign (x i) (* 2.0 (a i)))))\n",
                   0, {{{"n", 7}}, {{"n", 8}}, {{"n", 1}}}),
            "(proc @p ((size n) (in a (f32 n)) (out x (f32 n)))\n"
            "  (for i 0 n (assign (x i) (* 2.0 (a i)))))\n");
}

// Exo's test_join_loops_fail_type_match.
TEST(JoinLoopsTest, RejectsDifferentBodies) {
  EXPECT_EQ(JoinAt("(proc @p ()\n"
                   "  (for i 0 2 (alloc x (i8 4)) (assign (x i) 0))\n"
                   "  (for i 2 4 (alloc x (f32 4)) (assign (x i) 0.0)))\n"),
            "join_loops: the loops' bodies differ at statement 1: "
            "(alloc x (i8 4)) and (alloc x (f32 4))");
  EXPECT_EQ(JoinAt("(proc @p ((out x (f32 4)))\n"
                   "  (for i 0 2 (assign (x i) 0.0) (assign (x 0) 1.0))\n"
                   "  (for i 2 4 (assign (x i) 0.0)))\n"),
            "join_loops: the loops' bodies differ: the first has 2 "
            "statements, the second 1");
  // The same text, but the second reads the other loop's variable.
  EXPECT_EQ(JoinAt("(proc @p ((size n) (out x (f32 (+ n 2))))\n"
                   "  (for j 0 1\n"
                   "    (for i 0 1 (assign (x i) 0.0))\n"
                   "    (for i 1 2 (assign (x j) 0.0))))\n",
                   1),
            "join_loops: the loops' bodies differ at statement 1: "
            "(assign (x i) 0.0) and (assign (x j) 0.0)");
}

// A for-par is not a for, whether it is one of the loops or in their bodies.
TEST(JoinLoopsTest, RejectsAParallelLoopBesideASequentialOne) {
  EXPECT_EQ(JoinAt("(proc @p ((out x (f32 4)))\n"
                   "  (for-par i 0 2 (assign (x i) 0.0))\n"
                   "  (for i 2 4 (assign (x i) 0.0)))\n"),
            "join_loops: one loop is parallel and the other is not: the "
            "first is a for-par");
  EXPECT_EQ(JoinAt("(proc @p ((out x (f32 4 2)))\n"
                   "  (for i 0 2 (for-par j 0 2 (assign (x i j) 0.0)))\n"
                   "  (for i 2 4 (for j 0 2 (assign (x i j) 0.0))))\n"),
            "join_loops: the loops' bodies differ at statement 1: "
            "(for-par j 0 2 (assign (x i j) 0.0)) and "
            "(for j 0 2 (assign (x i j) 0.0))");
}

// Exo's test_join_loops_fail_equal_bounds.
TEST(JoinLoopsTest, RejectsAGapBetweenTheLoops) {
  EXPECT_EQ(JoinAt("(proc @p ((size n) (out x (f32 (+ n 2))))\n"
                   "  (for i 0 n (assign (x i) 0.0))\n"
                   "  (for i (+ n 1) (+ n 2) (assign (x i) 0.0)))\n"),
            "join_loops: the first loop's upper bound must be the second's "
            "lower bound, but they differ at n = 1: i in [0, 1) then i in "
            "[2, 3)");
}

// Exo checks only hi1 == lo2: when one loop runs backwards, the other's
// iterations are not those of the joined loop (a hole of Exo's).
TEST(JoinLoopsTest, RejectsALoopThatRunsBackwards) {
  EXPECT_EQ(JoinAt("(proc @p ((size n) (inout x (f32 (+ n 8))))\n"
                   "  (for i 4 n (assign (x i) 0.0))\n"
                   "  (for i n 8 (assign (x i) 0.0)))\n"),
            "join_loops: the loops do not run as one loop from the first's "
            "lower bound to the second's upper bound at n = 1: i in [4, 1) "
            "then i in [1, 8)");
  EXPECT_EQ(JoinAt("(proc @p ((size n) (inout x (f32 (+ n 8))))\n"
                   "  (for i 0 n (assign (x i) 0.0))\n"
                   "  (for i n 4 (assign (x i) 0.0)))\n"),
            "join_loops: the loops do not run as one loop from the first's "
            "lower bound to the second's upper bound at n = 5: i in [0, 5) "
            "then i in [5, 4)");
}

TEST(JoinLoopsTest, RejectsBoundsTheFirstBodyChanges) {
  EXPECT_EQ(JoinAt("(config @C (hi index))\n"
                   "(proc @p ((out x (f32 8)))\n"
                   "  (write-config @C hi 4)\n"
                   "  (for i 0 4 (assign (x i) 0.0) (write-config @C hi 8))\n"
                   "  (for i 4 (min (read-config @C hi) 8) (assign (x i) 0.0)\n"
                   "    (write-config @C hi 8)))\n"),
            "join_loops: the bounds of loop 'i' do not commute with its body: "
            "instances () and (i = 0) both access @C.hi: the first reads, the "
            "second writes");
}

TEST(JoinLoopsTest, RejectsLoopsApart) {
  EXPECT_EQ(Outcome(testing::Rewrite(
                "(proc @p ((out x (f32 4)))\n"
                "  (for i 0 2 (assign (x i) 0.0))\n"
                "  (assign (x 3) 1.0)\n"
                "  (for i 2 4 (assign (x i) 0.0)))\n",
                [](ir::Module& module, ir::Node& proc) {
                  return JoinLoops(
                             module,
                             ir::Cursor(module, &Nth(proc, ir::Op::kFor)),
                             ir::Cursor(module, &Nth(proc, ir::Op::kFor, 1)))
                      .status();
                })),
            "join_loops: the second loop must follow the first immediately");
}

}  // namespace
}  // namespace tessel::primitives
