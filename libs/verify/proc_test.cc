// Loop-level checks: statements, scopes, kinds and types.
#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "libs/verify/first_error.h"

namespace tessel::ir {
namespace {

TEST(LoopLevelTest, ValidStatements) {
  EXPECT_EQ(FirstError(R"(
(config @Cfg (scale f32) (n size) (flag bool))
(proc @all ((size n) (index k) (bool b) (in x (f32 n)) (inout y (f32 n))
            (out s f32))
  (assert (and (<= 0 k) (< k n)))
  (alloc t (f32 n 4))
  (alloc acc f32)
  (assign acc 0.0)
  (for i 0 n
    (if (and b (< i k))
      (then (assign (t i 0) (x i)))
      (else (assign (t i 0) (* 2 (x i)))))
    (let w (window t i (: 0 4)))
    (assign (w 3) (select (< (x i) 0.0) (neg (x i)) (max (x i) 1)))
    (reduce acc (/ (t i 0) (cast f32 (cast i32 (w 1))))))
  (assign (y k) (+ (y k) (read-config @Cfg scale)))
  (write-config @Cfg scale acc)
  (write-config @Cfg n (+ n 1))
  (write-config @Cfg flag (not b))
  (assign s acc))
)"),
            "ok");
}

TEST(LoopLevelTest, UnknownStatementAndOperator) {
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (frob y))"),
            "2:4: error: unknown statement 'frob'");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (assign y (frob 1.0)))"),
            "2:14: error: unknown operator 'frob'");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 (frob 4) "
                       "(assign (y i) 0.0)))"),
            "2:13: error: unknown operator 'frob'");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  7)"),
            "2:3: error: expected a statement, found '7'");
}

TEST(LoopLevelTest, Arity) {
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (assign y))"),
            "2:3: error: 'assign' takes 2 operands, found 1");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (assign y (+ 1.0 2.0 "
                       "3.0)))"),
            "2:13: error: '+' takes 2 operands, found 3");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0))"),
            "2:3: error: expected (for V LO HI STMT...)");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (if (< 1 2) (assign y "
                       "1.0)))"),
            "2:15: error: expected (then STMT...)");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (if (< 1 2) (then) (then)))"),
            "2:22: error: expected (else STMT...)");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (alloc t))"),
            "2:3: error: expected (alloc NAME TYPE [@MEM])");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 4 (assign "
                       "(y i) (select (< i 2) 1.0))))"),
            "2:28: error: 'select' takes 3 operands, found 2");
}

// fma of scalars: three operands of one type; literals take it.
TEST(LoopLevelTest, ScalarFma) {
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y i) (fma (x i) 2.0 1))))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (in n (i32 4)) (out y (f32 "
                       "4)))\n  (for i 0 4 (assign (y i) (fma (x i) (n i) "
                       "0.0))))"),
            "2:39: error: expected f32, found i32");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (in d (f64 4)) (out y (f32 "
                       "4)))\n  (for i 0 4 (assign (y i) (fma (x i) (x i) "
                       "(d i)))))"),
            "2:45: error: expected f32, found f64");
}

TEST(LoopLevelTest, AssertOnlyInThePreamble) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y f32))\n  (for i 0 n "
                       "(assert (< i n))))"),
            "2:14: error: assert is a precondition: it must come before the "
            "other statements of a proc or instr");
}

TEST(LoopLevelTest, Names) {
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (assign y z))"),
            "2:13: error: unbound name 'z'");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 4 (assign "
                       "(y j) 0.0)))"),
            "2:25: error: unbound name 'j'");
  // A loop variable lives in its loop only.
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 4)\n  "
                       "(assign (y i) 0.0))"),
            "3:14: error: unbound name 'i'");
  // An alloc lives to the end of its block.
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (for i 0 4 (alloc t "
                       "f32))\n  (assign y t))"),
            "3:13: error: unbound name 't'");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (if (< 1 2) (then (alloc "
                       "t f32)) (else (assign y t))))"),
            "2:52: error: unbound name 't'");
}

TEST(LoopLevelTest, NoShadowing) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y (f32 n)))\n  (for n 0 4 "
                       "(assign (y 0) 0.0)))"),
            "2:8: error: 'n' is already bound (names may not be shadowed)");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 4 (for i 0 "
                       "4 (assign (y i) 0.0))))"),
            "2:19: error: 'i' is already bound (names may not be shadowed)");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (alloc t f32)\n  "
                       "(alloc t f32))"),
            "3:10: error: 't' is already bound (names may not be shadowed)");
  // Sibling blocks may reuse a name.
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for i 0 4 (assign "
                       "(y i) 0.0))\n  (for i 0 4 (reduce (y i) 1.0)))"),
            "ok");
}

TEST(LoopLevelTest, ReservedNames) {
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4)))\n  (for max 0 4 (assign "
                       "(y 0) 0.0)))"),
            "2:8: error: 'max' is an operator and cannot name a variable");
  EXPECT_EQ(FirstError("(proc @p ((size select) (out y f32)))"),
            "1:17: error: 'select' is an operator and cannot name a "
            "variable");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (alloc window f32))"),
            "2:10: error: 'window' is an operator and cannot name a "
            "variable");
}

TEST(LoopLevelTest, ControlAndDataKinds) {
  // Data never flows into control.
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y (f32 4)))\n  (for i "
                       "0 (x 0) (assign (y i) 0.0)))"),
            "2:13: error: 'x' is data, but control expressions cannot "
            "depend on data");
  EXPECT_EQ(FirstError("(proc @p ((in s i32) (out y (f32 4)))\n  (for i 0 4 "
                       "(if (< s 2) (then (assign (y i) 0.0)))))"),
            "2:21: error: 's' is data, but control expressions cannot "
            "depend on data");
  EXPECT_EQ(FirstError("(proc @p ((in x (i32 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y (x i)) 0.0)))"),
            "2:26: error: 'x' is data, but control expressions cannot "
            "depend on data");
  // Control values are not data.
  EXPECT_EQ(FirstError("(proc @p ((out y (i32 4)))\n  (for i 0 4 (assign "
                       "(y i) i)))"),
            "2:28: error: 'i' is a control value (index), not data");
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y f32))\n  (assign n 1.0))"),
            "2:11: error: 'n' is a control value (size), not data");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (for i 0 (cast i32 2) "
                       "(assign y 0.0)))"),
            "2:12: error: 'cast' computes data, but control expressions "
            "cannot depend on data");
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (for i 0 2.5 (assign y "
                       "0.0)))"),
            "2:12: error: '2.5' is a float, but control expressions are "
            "integers and conditions");
}

TEST(LoopLevelTest, ControlKinds) {
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (for i 0 (< 1 2) (assign "
                       "y 0.0)))"),
            "2:12: error: expected an integer control expression, found a "
            "condition");
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y f32))\n  (if n (then "
                       "(assign y 0.0))))"),
            "2:7: error: expected a condition, found an integer expression");
  EXPECT_EQ(FirstError("(proc @p ((bool b) (out y (f32 4)))\n  (for i 0 4 "
                       "(assign (y b) 0.0)))"),
            "2:25: error: expected an integer control expression, found a "
            "condition");
}

TEST(LoopLevelTest, QuasiAffine) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y (f32 16)))\n  (for i 0 4 "
                       "(for j 0 4 (assign (y (* i j)) 0.0))))"),
            "2:36: error: control expressions are quasi-affine: '*' needs "
            "an integer literal on one side");
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y (f32 16)))\n  (for i 0 n "
                       "(assign (y (/ i n)) 0.0)))"),
            "2:30: error: control expressions are quasi-affine: '/' needs a "
            "positive integer literal divisor");
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 16)))\n  (for i 0 16 (assign "
                       "(y (% i 0)) 0.0)))"),
            "2:31: error: control expressions are quasi-affine: '%' needs a "
            "positive integer literal divisor");
  EXPECT_EQ(FirstError(R"((proc @p ((size n) (out y (f32 16)))
  (for i 0 32
    (assign (y (/ i 2)) 0.0)
    (assign (y (% (* 3 i) 16)) 0.0)
    (assign (y (min i 15)) 0.0)
    (assign (y (max (- i 16) 0)) (cast f32 1))
    (assign (y (- (neg i) (* -1 i))) 0.0))))"),
            "ok");
}

TEST(LoopLevelTest, Ranks) {
  EXPECT_EQ(FirstError("(proc @p ((out y (f32 4 4)))\n  (for i 0 4 (assign "
                       "(y i) 0.0)))"),
            "2:22: error: 'y' has rank 2, but 1 index is given");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y f32))\n  (assign y "
                       "x))"),
            "2:13: error: 'x' has rank 1; an element is (x I...)");
  EXPECT_EQ(FirstError("(proc @p ((in x f32) (out y f32))\n  (assign y "
                       "(x)))"),
            "2:13: error: 'x' is a scalar; write it as x, without "
            "parentheses");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)) (out y f32))\n  (let w "
                       "(window x (: 0 2))))"),
            "2:10: error: 'x' has rank 2, but the window has 1 selectors");
}

TEST(LoopLevelTest, Prefetches) {
  // Any integer index, inside the tensor or not: a hint is no access.
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)) (out y f32))\n  (for i 0 "
                       "4 (prefetch x (+ i 8) -1)) (assign y 0.0))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)) (out y f32))\n  "
                       "(prefetch x 0))"),
            "2:3: error: 'x' has rank 2, but prefetch gives 1 index");
  EXPECT_EQ(FirstError("(proc @p ((in x f32) (out y f32))\n  "
                       "(prefetch x 0))"),
            "2:13: error: 'x' is a scalar; prefetch needs a tensor or window");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y f32))\n  "
                       "(prefetch x 0.5))"),
            "2:15: error: '0.5' is a float, but control expressions are "
            "integers and conditions");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y f32))\n  "
                       "(prefetch (+ 1 2) 0))"),
            "2:13: error: prefetch needs the name of a tensor or window, found "
            "'(+ 1 2)'");
}

TEST(LoopLevelTest, DataTypes) {
  EXPECT_EQ(FirstError("(proc @p ((in x (i8 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y i) (x i))))"),
            "2:28: error: expected f32, found i8");
  EXPECT_EQ(FirstError("(proc @p ((in x (i8 4)) (in z (i32 4)) (out y (i32 "
                       "4)))\n  (for i 0 4 (assign (y i) (+ (x i) (z i)))))"),
            "2:31: error: expected i32, found i8");
  EXPECT_EQ(FirstError("(proc @p ((out y i32))\n  (assign y 1.5))"),
            "2:13: error: a float literal cannot be an i32");
  // A float type cannot hold a literal that rounds to infinity; NumPy's
  // text for the largest f32 rounds down to it.
  EXPECT_EQ(FirstError("(proc @p ((out y f32))\n  (assign y 1e39))"),
            "2:13: error: the literal 1e+39 does not fit in f32: it rounds "
            "to infinity");
  EXPECT_EQ(FirstError("(proc @p ((in x f32) (out y f32))\n  (assign y (* "
                       "x -3.5e38)))"),
            "2:18: error: the literal -3.5e+38 does not fit in f32: it "
            "rounds to infinity");
  EXPECT_EQ(FirstError("(proc @p ((out y f32) (out z f64))\n  (assign y "
                       "3.4028235e38) (assign z 1e39) (assign y -inf))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((out y (f16 2)))\n  (assign (y 0) 65504) "
                       "(assign (y 1) 65519.9))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((out y (f16 2)))\n  (assign (y 0) 65520))"),
            "2:17: error: the literal 65520 does not fit in f16: it rounds "
            "to infinity");
  EXPECT_EQ(FirstError("(proc @p ((in x f16) (out y f16))\n  (assign y "
                       "(select (< x 1e5) x 0.0)))"),
            "2:26: error: the literal 1e+05 does not fit in f16: it "
            "rounds to infinity");
  // Where nothing types them, literals are f64 (or i32), as in C.
  EXPECT_EQ(FirstError("(proc @p ((out y f16))\n  (assign y (cast f16 "
                       "1e39)))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f64 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y i) (cast f32 (* 2 (x i))))))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y i) (< (x i) 1.0))))"),
            "2:28: error: a comparison is not a data value; use (select COND "
            "A B)");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (in k (i32 4)) (out y (f32 "
                       "4)))\n  (for i 0 4 (assign (y i) (select (< (x i) (k "
                       "i)) 0.0 1.0))))"),
            "2:45: error: expected f32, found i32");
  EXPECT_EQ(FirstError("(proc @p ((out y (i8 4)))\n  (for i 0 4 (assign (y "
                       "i) (cast f128 1))))"),
            "2:34: error: expected an element type to cast to, found 'f128'");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)) (out y (f32 4)))\n  (for i "
                       "0 4 (assign (y i) (% (x i) 2.0))))"),
            "2:29: error: '%' is not a data operation");
}

TEST(LoopLevelTest, InParametersAreReadOnly) {
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4)))\n  (for i 0 4 (assign (x "
                       "i) 0.0)))"),
            "2:23: error: 'x' is an in parameter and cannot be written");
  EXPECT_EQ(FirstError("(proc @p ((in s f32))\n  (reduce s 1.0))"),
            "2:11: error: 's' is an in parameter and cannot be written");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)))\n  (let w (window x 1 "
                       "(: 0 4)))\n  (assign (w 0) 0.0))"),
            "3:12: error: 'w' views the in parameter 'x' and cannot be "
            "written");
  EXPECT_EQ(FirstError("(proc @p ((inout x (f32 4)) (out y f32))\n  (for i "
                       "0 4 (reduce (x i) 1.0))\n  (assign y (x 0)))"),
            "ok");
}

TEST(LoopLevelTest, Memories) {
  const std::string memory = "(memory @SP (alloc \"\") (addressable false))\n";
  EXPECT_EQ(FirstError(memory + "(proc @p ((in x (f32 4) @SP) (out y f32))\n  "
                                "(assign y (x 0)))"),
            "3:14: error: 'x' is in @SP, which is not addressable: only an "
            "instr may access it directly");
  EXPECT_EQ(
      FirstError(memory + "(proc @p ((out y f32))\n  (alloc t (f32 4) @SP)\n  "
                          "(assign (t 0) 1.0))"),
      "4:12: error: 't' is in @SP, which is not addressable: only an "
      "instr may access it directly");
  EXPECT_EQ(FirstError(memory +
                       "(instr @i ((in x (f32 4) @SP) (out y f32)) (c \"\")\n"
                       "  (assign y (x 0)))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4) @NOPE)))"),
            "1:25: error: unknown memory '@NOPE'");
  EXPECT_EQ(FirstError("(proc @p ()\n  (alloc t (f32 4) @NOPE))"),
            "2:20: error: unknown memory '@NOPE'");
}

TEST(LoopLevelTest, Configs) {
  const std::string config = "(config @C (scale f32) (n size))\n";
  EXPECT_EQ(FirstError(config + "(proc @p ()\n  (write-config @D n 1))"),
            "3:17: error: unknown config '@D'");
  EXPECT_EQ(FirstError(config + "(proc @p ()\n  (write-config @C m 1))"),
            "3:20: error: '@C' has no field 'm'");
  EXPECT_EQ(FirstError(config + "(proc @p ()\n  (write-config @C scale 1.0 "
                                "2.0))"),
            "3:3: error: 'write-config' takes 3 operands, found 4");
  EXPECT_EQ(FirstError(config + "(proc @p ((in x f32))\n  (write-config @C n "
                                "x))"),
            "3:22: error: 'x' is data, but control expressions cannot "
            "depend on data");
  EXPECT_EQ(FirstError(config + "(proc @p ()\n  (write-config @C scale 1))"),
            "ok");
  EXPECT_EQ(FirstError(config + "(proc @p ((out y (f32 4)))\n  (for i 0 "
                                "(read-config @C scale) (assign (y i) "
                                "0.0)))"),
            "3:12: error: field 'scale' of '@C' is data (f32), but control "
            "expressions cannot depend on data");
  EXPECT_EQ(FirstError(config + "(proc @p ((out y f32))\n  (assign y "
                                "(read-config @C n)))"),
            "3:13: error: field 'n' of '@C' is a control value (size), not "
            "data");
}

TEST(LoopLevelTest, Strides) {
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 8)) (out y (f32 8)))\n  (for "
                       "i 0 (stride x 0) (assign (y i) (x 0 i))))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 8)) (out y (f32 4)))\n  (for "
                       "i 0 (stride x 0) (assign (y i) (x i 0))))"),
            "2:36: error: index 0 of 'y' can reach 4, outside its extent 4 "
            "(at i = 4)");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 8)) (out y f32))\n  (for i 0 "
                       "(stride x 2) (assign y 0.0)))"),
            "2:22: error: expected a dimension of 'x' from 0 to 1, found "
            "'2'");
  EXPECT_EQ(FirstError("(proc @p ((size n) (out y f32))\n  (for i 0 (stride "
                       "n 0) (assign y 0.0)))"),
            "2:20: error: 'stride' needs the name of a tensor or window, "
            "found 'n'");
  EXPECT_EQ(FirstError("(proc @p ((in s f32) (out y f32))\n  (for i 0 (stride "
                       "s 0) (assign y 0.0)))"),
            "2:20: error: 's' is a scalar and has no strides");
}

TEST(LoopLevelTest, BadStepsSplitsAndPermutations) {
  auto error = [](const std::string& window) {
    return FirstError(absl::StrCat(
        "(proc @p ((in x (f32 4 8)) (out y f32))\n  (let w ", window, "))"));
  };
  EXPECT_EQ(error("(window x 0 (: 0 8 0))"),
            "2:29: error: the step of an interval is a positive integer "
            "literal, found '0'");
  EXPECT_EQ(error("(window x 0 (: 0 8 -1))"),
            "2:29: error: the step of an interval is a positive integer "
            "literal, found '-1'");
  EXPECT_EQ(error("(window x 0 (: 0 8 1 1))"),
            "2:22: error: an interval is (: LO HI) or (: LO HI STEP), found "
            "'(: 0 8 1 1)'");
  EXPECT_EQ(error("(window x 0 (: 0 9 2))"),
            "2:22: error: interval 1 of the window on 'x' can end at 9, "
            "beyond its extent 8");
  EXPECT_EQ(error("(window x 0 (split 0 8 3))"),
            "2:22: error: a split keeps rows of 3, but its interval has 8 "
            "elements: '(split 0 8 3)'");
  EXPECT_EQ(FirstError("(proc @p ((size n) (in x (f32 4 8)) (out y f32))\n"
                       "  (let w (window x 0 (split 0 n 2))))"),
            "2:22: error: the bounds of a split are integer literals, found "
            "'(split 0 n 2)'");
  EXPECT_EQ(error("(window x 0 (split 0 8 0))"),
            "2:33: error: a split's row length is a positive integer "
            "literal, found '0'");
  EXPECT_EQ(error("(window x (: 0 4) (: 0 8) (perm 0 0))"),
            "2:44: error: '(perm 0 0)' is no permutation of 0 to 1: entry 1 "
            "is a repeat");
  EXPECT_EQ(error("(window x (: 0 4) (: 0 8) (perm 0 2))"),
            "2:44: error: '(perm 0 2)' is no permutation of 0 to 1: entry 1 "
            "is out of range");
  EXPECT_EQ(error("(window x (perm 0 1) (: 0 4) (: 0 8))"),
            "2:20: error: a window's (perm P...) comes after all its "
            "selectors");
  EXPECT_EQ(error("(window x (: 0 4) (: 0 8) (perm 0))"),
            "2:36: error: the window keeps 2 dimensions, but its "
            "permutation has 1 entries: '(perm 0)'");
}

TEST(LoopLevelTest, Windows) {
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)) (out y f32))\n  (let w "
                       "(window x 1 2)))"),
            "2:10: error: a window keeps at least one dimension: give an "
            "interval (: LO HI), or read one element as (x I...)");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 4)) (out y f32))\n  (let w "
                       "x))"),
            "2:10: error: expected a window (window NAME SEL...), found 'x'");
  EXPECT_EQ(FirstError("(proc @p ((in x f32) (out y f32))\n  (let w (window "
                       "x (: 0 1))))"),
            "2:18: error: 'x' is a scalar and has no windows");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 4 8)) (out y f32))\n  (let w "
                       "(window x 1 (: 2 6)))\n  (assign y (w 4)))"),
            "3:16: error: index 0 of 'w' can reach 4, outside its extent 4");
}

TEST(LoopLevelTest, Dimensions) {
  EXPECT_EQ(FirstError("(proc @p ((size n) (in x (f32 (- n 1)))))"),
            "1:31: error: dimension 0 of 'x' can be 0, but dimensions are "
            "positive (at n = 1)");
  EXPECT_EQ(FirstError("(proc @p ((size n) (in x (f32 (- n 1))))\n  (assert "
                       "(> n 1)))"),
            "ok");
  EXPECT_EQ(FirstError("(proc @p ((index k) (in x (f32 k))))"),
            "1:32: error: a dimension may only use sizes and literals, and "
            "'k' is not a size");
  EXPECT_EQ(FirstError("(proc @p ((in x (f32 m)) (size m)))"),
            "1:22: error: unbound name 'm'");
  EXPECT_EQ(FirstError("(proc @p ((size n))\n  (for i 0 n (alloc t (f32 "
                       "i))))"),
            "2:28: error: a dimension may only use sizes and literals, and "
            "'i' is not a size");
  EXPECT_EQ(FirstError("(proc @p ()\n  (alloc t (window f32 4)))"),
            "2:12: error: alloc takes a scalar or tensor type, not a window");
  EXPECT_EQ(FirstError("(proc @p ((size n))\n  (assert (< n 0)))"),
            "2:3: error: the assertions of '@p' contradict each other: no "
            "call can establish them");
}

}  // namespace
}  // namespace tessel::ir
