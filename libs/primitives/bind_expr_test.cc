#include "libs/primitives/bind_expr.h"

#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"
#include "libs/primitives/testing.h"

namespace tessel::primitives {
namespace {

using testing::Nth;
using testing::Outcome;
using testing::Sizes;

// The `n`-th node of op `op` (testing::Nth).
using NodeAt = std::pair<ir::Op, int>;

// bind_expr of the nodes `at` of the last proc of `text` to `name`; the
// outcome (testing::Outcome).
std::string Bind(const std::string& text, const std::vector<NodeAt>& at,
                 const std::string& name = "t",
                 const std::vector<Sizes>& runs = {Sizes()}) {
  return Outcome(testing::Rewrite(
      text,
      [&](ir::Module& module, ir::Node& proc) {
        std::vector<ir::Cursor> exprs;
        for (const auto& [op, n] : at) {
          exprs.emplace_back(module, &Nth(proc, op, n));
        }
        return BindExpr(module, exprs, name).status();
      },
      runs));
}

// Exo's test_simple_bind_expr.
TEST(BindExprTest, BindsOneValue) {
  EXPECT_EQ(
      Bind("(proc @bar ((size n) (in x (i8 n)) (in y (i8 n)) (out z (i8 n)))\n"
           "  (for i 0 n (assign (z i) (+ (x i) (y i)))))\n",
           {{ir::Op::kAdd, 0}}, "z_tmp", {{{"n", 5}}, {{"n", 1}}}),
      "(proc @bar ((size n) (in x (i8 n)) (in y (i8 n)) (out z (i8 n)))\n"
      "  (for i 0 n\n"
      "    (alloc z_tmp i8)\n"
      "    (assign z_tmp (+ (x i) (y i)))\n"
      "    (assign (z i) z_tmp)))\n");
}

// Exo's test_bind_cursor_arg: the whole right side.
TEST(BindExprTest, BindsALiteral) {
  EXPECT_EQ(Bind("(proc @foo ((out a f32))\n  (assign a 1.0))\n",
                 {{ir::Op::kConst, 0}}, "const"),
            "(proc @foo ((out a f32)) (alloc const f32) (assign const 1.0) "
            "(assign a const))\n");
}

constexpr char kDiffIndices[] =
    "(proc @bar ((size n) (inout x (f32 n)) (in y (f32 n)))\n"
    "  (for i 0 (- n 1)\n"
    "    (alloc w (f32 n))\n"
    "    (assign (x i) (- (x i) (y i)))\n"
    "    (assign (w (+ i 1)) (+ (+ (x i) (y i)) 1.0))\n"
    "    (assign (x i) (y i))\n"
    "    (assign (w i) (+ (+ (x i) (y i)) 1.0))))\n";

// Exo's test_bind_expr_diff_indices: one of two equal expressions.
TEST(BindExprTest, BindsTheFirstOfTwo) {
  EXPECT_EQ(Bind(kDiffIndices, {{ir::Op::kAdd, 1}}, "tmp", {{{"n", 5}}}),
            "(proc @bar ((size n) (inout x (f32 n)) (in y (f32 n)))\n"
            "  (for i 0 (- n 1)\n"
            "    (alloc w (f32 n))\n"
            "    (assign (x i) (- (x i) (y i)))\n"
            "    (alloc tmp f32)\n"
            "    (assign tmp (+ (+ (x i) (y i)) 1.0))\n"
            "    (assign (w (+ i 1)) tmp)\n"
            "    (assign (x i) (y i))\n"
            "    (assign (w i) (+ (+ (x i) (y i)) 1.0))))\n");
}

// Both: x[i] is written between them.
TEST(BindExprTest, RejectsAWriteBetweenTwoPlaces) {
  EXPECT_EQ(Bind(kDiffIndices, {{ir::Op::kAdd, 1}, {ir::Op::kAdd, 3}}, "tmp"),
            "bind_expr: what '(+ (+ (x i) (y i)) 1.0)' reads may change "
            "between where it would be bound and where it is computed: n = 2: "
            "instances (i = 0) and (i = 0) both access x[0]: the first "
            "writes, the second reads");
}

// Exo's test_bind_expr_cse_2: one buffer for the literal of two loops.
TEST(BindExprTest, BindsCommonValuesBeforeTheirCommonStatement) {
  EXPECT_EQ(Bind("(proc @foo ((out x (f32 5)) (out y (f32 5)))\n"
                 "  (for i 0 5 (assign (x i) 2.0))\n"
                 "  (for i 0 5 (assign (y i) 2.0)))\n",
                 {{ir::Op::kConst, 2}, {ir::Op::kConst, 5}}, "two"),
            "(proc @foo ((out x (f32 5)) (out y (f32 5)))\n"
            "  (alloc two f32)\n"
            "  (assign two 2.0)\n"
            "  (for i 0 5 (assign (x i) two))\n"
            "  (for i 0 5 (assign (y i) two)))\n");
}

constexpr char kCse[] =
    "(proc @foo ((inout a f32) (out b f32) (inout c f32))\n"
    "  (assign b (* 2.0 a))\n"
    "  (for i 0 5 (reduce c (* 2.0 a)) (assign a (* 2.0 a))))\n";

// Exo's test_bind_expr_cse: `a` changes in the loop, so only the first
// can be bound.
TEST(BindExprTest, BindsOnlyWhatDoesNotChange) {
  EXPECT_EQ(Bind(kCse, {{ir::Op::kMul, 0}, {ir::Op::kMul, 1}}, "two_times_a"),
            "bind_expr: what '(* 2.0 a)' reads may change between where it "
            "would be bound and where it is computed: instances (i = 0) and "
            "(i = 1) both access a: the first writes, the second reads");
  EXPECT_EQ(Bind(kCse, {{ir::Op::kMul, 0}}, "two_times_a"),
            "(proc @foo ((inout a f32) (out b f32) (inout c f32))\n"
            "  (alloc two_times_a f32)\n"
            "  (assign two_times_a (* 2.0 a))\n"
            "  (assign b two_times_a)\n"
            "  (for i 0 5 (reduce c (* 2.0 a)) (assign a (* 2.0 a))))\n");
}

// Exo's test_bind_lhs: reads of `inp` are bound across the statements,
// those of `out` (reduced by the first) are not.
TEST(BindExprTest, BindsAcrossStatementsThatDoNotWriteIt) {
  constexpr char kLhs[] =
      "(proc @p ((in inp (i32 1 1 16)) (inout out (i32 1 1 16)))\n"
      "  (for ii 0 1 (for jj 0 1 (for kk 0 16\n"
      "    (reduce (out ii jj kk) (+ (out ii jj kk) (inp ii jj kk)))\n"
      "    (assign (out ii jj kk) (* (out ii jj kk) (inp ii jj kk)))))))\n";
  EXPECT_EQ(Bind(kLhs, {{ir::Op::kLoad, 2}, {ir::Op::kLoad, 5}}, "inp_ram"),
            "(proc @p ((in inp (i32 1 1 16)) (inout out (i32 1 1 16)))\n"
            "  (for ii 0 1\n"
            "    (for jj 0 1\n"
            "      (for kk 0 16\n"
            "        (alloc inp_ram i32)\n"
            "        (assign inp_ram (inp ii jj kk))\n"
            "        (reduce (out ii jj kk) (+ (out ii jj kk) inp_ram))\n"
            "        (assign (out ii jj kk) (* (out ii jj kk) inp_ram))))))\n");
  EXPECT_EQ(Bind(kLhs, {{ir::Op::kLoad, 1}, {ir::Op::kLoad, 4}}, "out_ram"),
            "bind_expr: what '(out ii jj kk)' reads may change between where "
            "it would be bound and where it is computed: instances (ii = 0, "
            "jj = 0, kk = 0) and (ii = 0, jj = 0, kk = 0) both access out[0, "
            "0, 0]: the first reduces, the second reads");
}

// Exo binds a place whose statement comes before the first write in
// program order, even in a loop that writes it in a later iteration.
TEST(BindExprTest, RejectsAWriteInALaterIteration) {
  EXPECT_EQ(Bind("(proc @p ((size n) (inout a (f32 1)) (out y (f32 n))\n"
                 "          (out s f32))\n"
                 "  (assign s (* (a 0) 2.0))\n"
                 "  (for j 0 n (assign (y j) (* (a 0) 2.0))\n"
                 "    (assign (a 0) 3.0)))\n",
                 {{ir::Op::kMul, 0}, {ir::Op::kMul, 1}}),
            "bind_expr: what '(* (a 0) 2.0)' reads may change between where "
            "it would be bound and where it is computed: n = 2: instances (j "
            "= 0) and (j = 1) both access a[0]: the first writes, the second "
            "reads");
}

TEST(BindExprTest, BindsBeforeAnIfWithAPlaceInEachBranch) {
  EXPECT_EQ(Bind("(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
                 "  (for i 0 n (if (< i 2)\n"
                 "    (then (assign (y i) (* 2.0 (x i))))\n"
                 "    (else (assign (y i) (+ 1.0 (* 2.0 (x i))))))))\n",
                 {{ir::Op::kMul, 0}, {ir::Op::kMul, 1}}, "t",
                 {{{"n", 5}}, {{"n", 1}}}),
            "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)))\n"
            "  (for i 0 n\n"
            "    (alloc t f32)\n"
            "    (assign t (* 2.0 (x i)))\n"
            "    (if (< i 2) (then (assign (y i) t)) (else (assign (y i) (+ "
            "1.0 t))))))\n");
}

// Computed before the first `if`, x[n] would be read.
TEST(BindExprTest, RejectsAReadOutOfBoundsWhereItWouldBeComputed) {
  std::string outcome = Bind(
      "(proc @p ((size n) (in x (f32 n)) (out y (f32 (+ n 1))))\n"
      "  (for i 0 (+ n 1)\n"
      "    (assign (y i) 0.0)\n"
      "    (if (< i n) (then (assign (y i) (x i))))\n"
      "    (if (< i n) (then (reduce (y i) (x i))))))\n",
      {{ir::Op::kLoad, 2}, {ir::Op::kLoad, 4}});
  EXPECT_EQ(outcome.substr(0, outcome.find('\n')),
            "bind_expr: m.tir:4:40: error: index 0 of 'x' can reach 1, "
            "outside its extent 1 (at n = 1, i = 1)");
}

TEST(BindExprTest, RejectsHoistingWhatCanFail) {
  EXPECT_EQ(Bind("(proc @p ((size n) (in x (i32 n)) (in d (i32 n))\n"
                 "          (out y (i32 n)))\n"
                 "  (for i 0 n (assign (y i)\n"
                 "    (select (!= (d i) 0) (/ (x i) (d i)) 0))))\n",
                 {{ir::Op::kDiv, 0}}),
            "bind_expr: '(/ (x i) (d i))' would be computed before '(assign "
            "(y i) (select (!= (d i) 0) (/ (x i) (d i)) 0))', where it is not "
            "always computed, and it can divide an integer by zero");
  // y[0] is written only when n > 1, and read only then.
  EXPECT_EQ(Bind("(proc @p ((size n) (in x (f32 n)) (out y (f32 n))\n"
                 "          (out z (f32 2)))\n"
                 "  (for i 0 n (assign (y i) (x i)))\n"
                 "  (assign (z 0) 0.0) (assign (z 1) 0.0)\n"
                 "  (if (> n 1) (then (assign (z 0) (* (y 1) 2.0))))\n"
                 "  (if (> n 1) (then (assign (z 1) (* (y 1) 2.0)))))\n",
                 {{ir::Op::kMul, 0}, {ir::Op::kMul, 1}}),
            "bind_expr: '(* (y 1) 2.0)' would be computed before '(if (> n "
            "1) (then (assign (z 0) (* (y 1) 2.0))))', where it is not always "
            "computed, and it reads 'y', which may not be written");
  // Computed unconditionally already: bound.
  EXPECT_EQ(Bind("(proc @p ((in x i32) (in d i32) (out y i32))\n"
                 "  (assign y (+ (/ x d) 1)))\n",
                 {{ir::Op::kDiv, 0}}, "q"),
            "(proc @p ((in x i32) (in d i32) (out y i32))\n"
            "  (alloc q i32)\n"
            "  (assign q (/ x d))\n"
            "  (assign y (+ q 1)))\n");
}

TEST(BindExprTest, RejectsAConfigurationWriteBetweenTwoPlaces) {
  EXPECT_EQ(Bind("(config @C (scale f32))\n"
                 "(proc @p ((in x (f32 4)) (out y (f32 4)))\n"
                 "  (write-config @C scale 2.0)\n"
                 "  (assign (y 0) (* (read-config @C scale) (x 0)))\n"
                 "  (write-config @C scale 3.0)\n"
                 "  (assign (y 1) (* (read-config @C scale) (x 0))))\n",
                 {{ir::Op::kMul, 0}, {ir::Op::kMul, 1}}),
            "bind_expr: what '(* (read-config @C scale) (x 0))' reads may "
            "change between where it would be bound and where it is "
            "computed: the statements both access @C.scale: the first writes, "
            "the second reads");
}

TEST(BindExprTest, RejectsWhatIsNoValueToBind) {
  constexpr char kProc[] =
      "(proc @p ((size n) (in x (f32 n)) (out y (f32 n)) (out z (f32 n)))\n"
      "  (for i 0 n (assign (y i) (x i)) (assign (z i) (* (x i) 2.0))))\n";
  EXPECT_EQ(Bind(kProc, {{ir::Op::kRef, 3}}),
            "bind_expr: 'n' is not a scalar data value (only those are bound)");
  EXPECT_EQ(Bind(kProc, {{ir::Op::kLoad, 0}}),
            "bind_expr: '(y i)' is written by '(assign (y i) (x i))', not a "
            "value");
  EXPECT_EQ(Bind(kProc, {{ir::Op::kLoad, 1}, {ir::Op::kMul, 0}}),
            "bind_expr: the expressions differ: '(x i)' and '(* (x i) 2.0)'");
  EXPECT_EQ(Bind(kProc, {{ir::Op::kLoad, 1}}, "x"),
            "bind_expr: the new name 'x' is already used in the proc");
  EXPECT_EQ(Bind(kProc, {{ir::Op::kLoad, 1}}, "2x"),
            "bind_expr: '2x' is not a name");
}

// Given twice, a place is bound once.
TEST(BindExprTest, BindsAPlaceGivenTwiceOnce) {
  EXPECT_EQ(Bind("(proc @p ((in x (f32 4)) (out y (f32 4)))\n"
                 "  (for i 0 4 (assign (y i) (* (x i) 2.0))))\n",
                 {{ir::Op::kMul, 0}, {ir::Op::kMul, 0}}),
            "(proc @p ((in x (f32 4)) (out y (f32 4)))\n"
            "  (for i 0 4 (alloc t f32) (assign t (* (x i) 2.0)) (assign (y "
            "i) t)))\n");
}

// Two loops over `i` with the same text: different binders, so not the
// same value.
TEST(BindExprTest, RejectsTheSameTextOfDifferentLoops) {
  EXPECT_EQ(Bind("(proc @p ((in x (f32 4)) (out y (f32 4)) (out z (f32 4)))\n"
                 "  (for i 0 4 (assign (y i) (x i)))\n"
                 "  (for i 0 4 (assign (z i) (x i))))\n",
                 {{ir::Op::kLoad, 1}, {ir::Op::kLoad, 3}}),
            "bind_expr: the expressions differ: '(x i)' and '(x i)'");
}

}  // namespace
}  // namespace tessel::primitives
